#include "chaos/trial.h"

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "chaos/client.h"
#include "chaos/client_trial.h"
#include "chaos/harness.h"
#include "chaos/history.h"
#include "chaos/nemesis.h"
#include "chaos/netns_job.h"
#include "chaos/network.h"
#include "chaos/schedule.h"
#include "host/failover_pair.h"
#include "lab/lab_dir.h"
#include "lab/run_log.h"
#include "rlock/error.h"
#include "timeline/timeline_svg.h"

namespace rlock {
namespace {

using Clock = std::chrono::steady_clock;

// The trial's proxies when its fault goes through them, seeded from the trial's schedule.
std::unique_ptr<TrialNetwork> network_for(const TrialSpec& spec, const Schedule& schedule, const RedisAddress& redis,
                                          const std::vector<RedisAddress>& redlock, const std::string& conninfo) {
  if (!through_proxies(spec.fault)) return nullptr;
  std::uint64_t seed = static_cast<std::uint64_t>(schedule.pause_s * 1e9);
  return std::make_unique<TrialNetwork>(schedule.workers.size(), redlock.empty() ? std::vector<RedisAddress>{redis} : redlock,
                                        conninfo, seed);
}

// The built-in strategy's workers, forked and supervised: how each one ended, and the money the
// account misses by the history's bounds.
std::vector<WorkerExit> run_workers(const TrialSpec& spec, const Schedule& schedule, long account, Job& job,
                                    const LabDir& dir, const RedisAddress& redis,
                                    const std::vector<RedisAddress>& redlock_addresses,
                                    std::optional<FailoverPair>& pair, std::optional<LocalRedis>& own, const LockKey& key) {
  const ChaosSetup& setup = job.setup;
  std::unique_ptr<TrialNetwork> network =
      job.lab ? nullptr : network_for(spec, schedule, redis, redlock_addresses, setup.conninfo);
  struct HealAll {  // no partition outlives its trial
    JobLab* lab;
    ~HealAll() {
      if (lab) lab->heal_all();
    }
  } heal_all{job.lab};
  dir.start_new_run(wall_seconds() + 0.05);  // the workers' clocks start once all are forked
  RunLog log(dir, Lang::en);
  Nemesis nemesis = nemesis_for(spec, schedule, job, pair, own, network.get(), key, log);
  std::vector<pid_t> pids;
  for (std::size_t i = 0; i < schedule.workers.size(); ++i) {
    std::vector<RedisAddress> servers = network ? network->redis_of(i) : redlock_addresses;
    LabSetup lab{network ? servers.front() : redis, network ? network->conninfo_of(i) : setup.conninfo, dir, Lang::en};
    WorkerPlan plan = plan_for(spec.strategy, schedule.workers[i], account, setup, redlock_addresses.empty() ? redlock_addresses : servers);
    pids.push_back(spawn_worker(plan, lab, i == schedule.target ? schedule.clock_rate : 1,
                                job.lab ? std::function<void()>([&job, i] { job.lab->enter_worker(i); })
                                        : std::function<void()>()));
  }
  if (nemesis.tick) nemesis.tick();  // net-delay holds from the start
  return supervise(spec, schedule, pids, dir, log, nemesis, [&] { return stopping(setup); });
}

// The protocol client's trial (client_trial.h), on `servers`: how each client ended, and the
// served account's exact count of stale writes, or the client's error.
ClientTrialOutcome run_clients(const TrialSpec& spec, const Schedule& schedule, Job& job, const LabDir& dir,
                               const std::vector<RedisAddress>& servers, std::optional<FailoverPair>& pair,
                               std::optional<LocalRedis>& own, const LockKey& key) {
  std::unique_ptr<TrialNetwork> network = network_for(spec, schedule, servers.front(), servers.size() > 1 ? servers : std::vector<RedisAddress>{},
                                                      job.setup.conninfo);
  std::vector<std::vector<std::string>> urls;
  for (std::size_t i = 0; i < schedule.workers.size(); ++i) {
    urls.emplace_back();
    for (const RedisAddress& server : network ? network->redis_of(i) : servers) urls.back().push_back(server.url());
  }
  ClientTrialSetup client{*spec.client, urls, key.lock, job.setup.ttl, AccountStore::kInitialBalance};
  std::optional<RunLog> log;
  auto start_clock = [&]() -> const RunLog& {
    dir.start_new_run(wall_seconds());
    return log.emplace(dir, Lang::en);
  };
  auto nemesis = [&](const RunLog& started) { return nemesis_for(spec, schedule, job, pair, own, network.get(), key, started); };
  std::filesystem::create_directories(dir.root());  // for the clients' stderr
  return run_client_trial(spec, schedule, client, dir, start_clock, nemesis);
}

}  // namespace

// Runs the trial and returns what judge() needs; keeps its directory when it is anomalous.
TrialInput run_trial(const TrialSpec& spec, long account, Job& job) {
  const ChaosSetup& setup = job.setup;
  TrialInput input{spec};
  auto began = Clock::now();
  LabDir dir(setup.dir / "trials" / fmt::format("{}-{}-{}", row_name(spec), to_string(spec.fault), spec.number));
  Schedule schedule = schedule_for(spec, setup);
  if (!spec.client) needing("PostgreSQL", postgres_at(setup), [&] { job.store.reset(account); });
  LockKey key = LockKey::for_account(account);
  on_shared_redis(job, {"DEL", key.lock, key.fence_counter});
  bool redlock = on_three_servers(spec);
  std::vector<RedisAddress> redlock_addresses =
      redlock ? needing("a Redlock server", fmt::format("127.0.0.1:{}", setup.redlock_port + 3 * job.number),
                        [&] { return redlock_servers_for(job, key); })
              : std::vector<RedisAddress>{};
  std::optional<FailoverPair> pair;
  std::optional<LocalRedis> own;  // a stall's server: stopping the shared one would stall every job
  if ((spec.fault == Fault::failover || spec.fault == Fault::redis_stall) && !redlock) {
    std::filesystem::create_directories(dir.root());  // for the servers' logs
    int port = failover_port_of(setup, job.number);
    if (spec.fault == Fault::redis_stall) {
      needing("the trial's Redis", fmt::format("127.0.0.1:{}", port), [&] { own.emplace(port, dir.root()); });
    } else {
      needing("the failover pair", fmt::format("127.0.0.1:{}", port), [&] {
        pair.emplace(port, dir.root());
        pair->hold_replication(std::chrono::duration<double>(schedule.replica_lag_s));
      });
    }
  }
  RedisAddress redis = pair ? pair->address() : own ? own->address() : setup.redis;

  std::vector<WorkerExit> exits;
  if (spec.client) {
    ClientTrialOutcome outcome = needing(fmt::format("client {}", spec.client->name), spec.client->command, [&] {
      return run_clients(spec, schedule, job, dir, redlock ? redlock_addresses : std::vector<RedisAddress>{redis}, pair,
                         own, key);
    });
    exits = std::move(outcome.exits);
    input.served = ServedTally{outcome.account.stale_writes(), outcome.account.lost_money()};
    input.client_error = outcome.client_error.value_or("");
  } else {
    exits = run_workers(spec, schedule, account, job, dir, redis, redlock_addresses, pair, own, key);
  }
  if (pair) input.lock_reached_replica = pair->lock_reached_replica();
  pair.reset();
  own.reset();
  if (stopping(setup)) throw TrialStopped{};
  // A trial that ran while the shared Redis was gone judges nothing: it is not run.
  on_shared_redis(job, {"PING"});

  std::vector<Event> events;
  try {
    events = read_events(dir);
  } catch (const Error&) {
    if (input.client_error.empty()) throw;  // a client that failed before the clock started has none
  }
  input.history = history_from(events, exits);
  for (const WorkerExit& exit : exits) input.stuck.push_back(exit.stuck);
  if (!spec.client && input.client_error.empty()) {
    input.final_balance = needing("PostgreSQL", postgres_at(setup), [&] { return job.store.read_balance(account); });
  }
  input.struck = fault_struck(spec, schedule, events);
  input.ms = std::chrono::duration<double, std::milli>(Clock::now() - began).count();
  if (judge(input).anomaly() || !input.client_error.empty()) {
    write_history(dir.root() / "history.jsonl", input.history);
    if (!events.empty()) write_timeline(dir, dir.timeline(), SvgOptions{dir.root().filename().string()});
  } else {
    std::filesystem::remove_all(dir.root());
  }
  return input;
}

}  // namespace rlock
