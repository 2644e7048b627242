// Randomized trials of locking strategies under faults, the Jepsen way: a generator (a seeded
// schedule per trial, schedule.h), clients (forked worker processes running a strategy, runner/worker_spawn.h), a
// nemesis (the fault, faults/fault.h, and the trial loop, trial_loop.h), a history (events and exit statuses,
// history.h), checkers (checkers.h), and the campaign that runs trials in jobs (campaign.h, job.h).
//
// This header is their vocabulary: the faults (each one object, faults/fault.h; the strategies are
// the lab's, strategy.h), and a trial's spec and setup (its result is the checker's, judge.h).
// Each trial has 2 to 4 workers adding random amounts to an account and lock of its own, so trials
// run side by side on one Redis and one PostgreSQL. A trial is replayable from the seed, its strategy, its fault and
// its number. Plain values and pure functions; thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chaos/faults/fault.h"
#include "chaos/workload.h"
#include "lab/strategy.h"
#include "protocol/client_spec.h"
#include "rlock/error.h"
#include "rlock/redis_address.h"
#include "rlock/release_waiter.h"

namespace rlock::chaos {

// What the lock's servers are (`--topology`): one server, as every campaign ran them first; or a
// cluster of three of the job's own, an etcd cluster or a ZooKeeper ensemble by the client's server
// (host/server_cluster.h), the clients given all three.
enum class Topology { single, cluster };
std::string_view to_string(Topology topology);
std::optional<Topology> topology_from(std::string_view name);
inline constexpr std::string_view kTopologies = "single or cluster";
// Whether rlock runs a cluster of that kind of server (etcd, ZooKeeper: host/server_cluster.h).
bool has_cluster(protocol::ServerKind kind);

// Whether the strategy promises no anomaly under the fault (FaultModel::expected_safe).
bool expected_safe(lab::Strategy strategy, Fault fault);
// Why the fault cannot strike or cannot matter to the strategy on `topology`, by construction;
// empty when it can. Such a cell is not run and prints n/a (docs/chaos.md). On a cluster, only an
// etcd or ZooKeeper client whose adapter takes its members runs (a strategy's lock is on one
// Redis); a fault of a cluster's members needs one.
std::string_view not_applicable(lab::Strategy strategy, Fault fault, Topology topology = Topology::single);
// The same for a protocol client (ClientSpec), by the kind of server its lock lives on; a fault
// through proxies cannot reach a Hazelcast client, whose members are three.
std::string_view not_applicable_to_client(Fault fault, const protocol::ClientSpec& client,
                                          Topology topology = Topology::single);

struct TrialSpec {
  lab::Strategy strategy = lab::Strategy::ttl;
  Fault fault{};
  int number = 0;
  std::optional<protocol::ClientSpec> client;  // a protocol client's trial (then `strategy` is not used)
};

// The trial's row: the client's name, or the strategy's.
std::string row_name(const TrialSpec& spec);
// Whether the trial's lock lives on the job's three Redlock servers (redlock, or a NAME@3 client).
bool on_three_servers(const TrialSpec& spec);

// A run of a scenario (scenario/scenario_run.h): its name and the version of the library it judged.
struct ScenarioLabel {
  std::string name;
  std::string version;
  bool operator==(const ScenarioLabel&) const = default;
};

struct ChaosSetup {
  RedisAddress redis;
  std::string conninfo;
  std::filesystem::path dir;  // trials run in dir/trials/STRATEGY-FAULT-N
  std::uint64_t seed = 0;
  std::chrono::milliseconds ttl{200};
  long first_account = 100000;  // trial i uses account first_account + i
  // A failover trial of job j runs its own primary on failover_port + 2j and a replica on the next.
  int failover_port = 6420;
  // Job j's redlock trials share three servers of its own, on redlock_port + 3j and the next two.
  int redlock_port = 6700;
  // Under Topology::cluster, job j's trials share an etcd cluster and a ZooKeeper ensemble of its
  // own, as its clients need them, on 15 ports from cluster_port + 15j (cluster_port_of, job.h). The
  // campaign's topology (run_campaign sets it).
  Topology topology = Topology::single;
  int cluster_port = 7300;
  // How a refused worker of a single-Redis strategy waits: every 10 ms, or until the release is
  // announced (10 ms at most: an expired lock announces nothing).
  WaitMode wait = WaitMode::poll;
  // Where the run is stored for `rlock analyze` (run_record.h); empty: not stored.
  std::filesystem::path run_dir{};
  // Each job in network namespaces of its own, partition a real one (netns_job.h).
  bool netns = false;
  // Workers a trial: 0 draws 2 to 4 (schedule.h); a scenario (scenario/) fixes them.
  int workers = 0;
  // Keep a trial with a failed, stuck or unwritten increment too, not only an anomalous one (a
  // scenario's losses may be those, and its first is drawn).
  bool keep_incomplete = false;
  // The scenario and the version of its library that a run replays, named in its run.json.
  std::optional<ScenarioLabel> scenario{};
  // Trials as histories (workload.h): a protocol client's workers lock again and again under a
  // nemesis schedule, `nemesis` or, without one, the one drawn for each cell's fault.
  Workload workload{};
  std::optional<NemesisSchedule> nemesis{};

  // The workers of each trial: a history's workload's, else `workers`.
  int trial_workers() const { return workload.history() ? workload.workers : workers; }
};

// A server the harness itself needs (the shared Redis or PostgreSQL, a failover pair, a Redlock
// server, a protocol client's start) stopped answering: the campaign stops, its trials not run.
class HarnessLost : public Error {
 public:
  using Error::Error;
};

// The campaign was interrupted (SIGINT, SIGTERM: interruption.h) and stopped cleanly, its run
// sealed as interrupted; or a stored run read back is one such.
class Interrupted : public Error {
 public:
  using Error::Error;
};

}  // namespace rlock::chaos
