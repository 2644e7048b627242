#include "runner/trial.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "chaos/generator.h"
#include "chaos/needed_servers.h"
#include "chaos/trial_context.h"
#include "checker/classification.h"
#include "checker/history.h"
#include "lab/log_dir.h"
#include "lab/run_log.h"
#include "protocol/client_spec.h"
#include "rlock/error.h"
#include "runner/client_trial.h"
#include "runner/history_trial.h"
#include "runner/worker_trial.h"
#include "store/run_record.h"
#include "timeline/timeline_svg.h"

namespace rlock::runner {
namespace {

using Clock = std::chrono::steady_clock;

// The HOST:PORT of the etcd or ZooKeeper the trial's client locks on, from the variable its adapter
// reads, or each member's of the job's etcd cluster; none for Redis and the built-in strategies.
std::vector<std::string> client_server_addresses(const chaos::TrialContext& trial) {
  if (trial.cluster) {
    std::vector<std::string> members;
    for (std::size_t i = 0; i < host::ServerCluster::kMembers; ++i) members.push_back(trial.cluster->endpoint(i));
    return members;
  }
  if (!trial.spec.client) return {};
  std::string_view variable = protocol::address_variable(trial.spec.client->server);
  if (variable.empty()) return {};
  const char* address = std::getenv(std::string(variable).c_str());
  if (address == nullptr || *address == '\0') return {};
  return {address};
}

// `items` comma-separated, begun at the `first`-th, the ones before it after the rest.
std::string joined_from(const std::vector<std::string>& items, std::size_t first) {
  std::string out;
  for (std::size_t k = 0; k < items.size(); ++k) out += (k == 0 ? "" : ",") + items[(first + k) % items.size()];
  return out;
}

// Each worker's variables beside its own: the one naming its etcd, ZooKeeper or PostgreSQL proxy,
// when the trial has one, or its cluster's members (worker i's list begun at member i mod 3, its
// own: an adapter that takes the first alone is connected to it, as Jepsen's clients are), and the
// fault's for the target (a skewed clock).
std::vector<std::vector<std::string>> client_overrides(const chaos::TrialContext& trial) {
  std::vector<std::vector<std::string>> overrides(trial.schedule.workers.size());
  std::vector<std::string> members = trial.cluster ? client_server_addresses(trial) : std::vector<std::string>{};
  for (std::size_t i = 0; i < overrides.size(); ++i) {
    std::vector<std::string> servers = trial.network ? trial.network->client_servers_of(i) : members;
    if (servers.empty() || !trial.spec.client) break;
    overrides[i].push_back(fmt::format("{}={}", protocol::address_variable(trial.spec.client->server),
                                       joined_from(servers, trial.cluster ? i : 0)));
  }
  for (std::string& variable : trial.spec.fault->target_client_environment(trial.schedule)) {
    overrides[trial.schedule.target].push_back(std::move(variable));
  }
  return overrides;
}

// The faults a trial strikes: its own, or its history's schedule's.
std::vector<chaos::Fault> faults_of(const chaos::TrialContext& trial, bool history) {
  std::vector<chaos::Fault> faults{trial.spec.fault};
  if (!history || !trial.setup().nemesis) return faults;
  for (const chaos::NemesisStep& step : trial.setup().nemesis->steps) {
    if (std::find(faults.begin(), faults.end(), step.fault) == faults.end()) faults.push_back(step.fault);
  }
  return faults;
}

// The trial's account and lock made new, and the servers and proxies its lock and its faults use.
void set_up(chaos::TrialContext& trial, const std::vector<chaos::Fault>& faults) {
  const chaos::ChaosSetup& setup = trial.setup();
  if (!trial.spec.client)
    chaos::needing("PostgreSQL", chaos::postgres_at(setup), [&] { trial.job.store.reset(trial.account); });
  chaos::on_shared_redis(trial.job, {"DEL", trial.key.lock, trial.key.fence_counter});
  if (chaos::on_three_servers(trial.spec)) {
    trial.redlock =
        chaos::needing("a Redlock server", fmt::format("127.0.0.1:{}", setup.redlock_port + 3 * trial.job.number),
                       [&] { return chaos::redlock_servers_for(trial.job, trial.key); });
  }
  if (setup.topology == chaos::Topology::cluster && trial.spec.client) {
    protocol::ServerKind kind = trial.spec.client->server;
    trial.cluster = chaos::needing("the cluster",
                                   fmt::format("127.0.0.1:{}", chaos::cluster_port_of(setup, trial.job.number, kind)),
                                   [&] { return &chaos::cluster_for(trial.job, kind); });
  }
  for (chaos::Fault fault : faults) fault->set_up(trial);
  bool proxies = std::any_of(faults.begin(), faults.end(), [](chaos::Fault f) { return f->through_proxies(); });
  if (proxies && !trial.job.lab) {  // seeded from the trial's schedule
    auto seed = static_cast<std::uint64_t>(trial.schedule.pause_s * 1e9);
    trial.network = std::make_unique<chaos::TrialNetwork>(trial.schedule.workers.size(), trial.servers(),
                                                          setup.conninfo, seed, client_server_addresses(trial));
  }
}

// What each worker's client is given: its servers' URLs, the replica's, its variables.
ClientTrialSetup client_setup(const chaos::TrialContext& trial) {
  std::vector<std::vector<std::string>> urls;
  for (std::size_t i = 0; i < trial.schedule.workers.size(); ++i) {
    urls.emplace_back();
    for (const RedisAddress& server : trial.network ? trial.network->redis_of(i) : trial.servers()) {
      urls.back().push_back(server.url());
    }
  }
  return ClientTrialSetup{*trial.spec.client,
                          urls,
                          trial.pair ? std::optional(trial.pair->replica_address().url()) : std::nullopt,
                          client_overrides(trial),
                          trial.key.lock,
                          trial.setup().ttl,
                          bank::AccountStore::kInitialBalance};
}

// Runs `run` (the client's trial or history) with the trial's clock and its clients' directory.
template <typename Run>
auto with_clients(chaos::TrialContext& trial, const Run& run) {
  auto start_clock = [&] {
    trial.spec.fault->clock_started(trial);
    trial.dir.start_new_run(lab::wall_seconds());
    trial.log.emplace(trial.dir, lab::Lang::en);
  };
  std::filesystem::create_directories(trial.dir.root());  // for the clients' stderr
  const protocol::ClientSpec& client = *trial.spec.client;
  return chaos::needing(fmt::format("client {}", client.name), protocol::blank_command_secrets(client.command),
                        [&] { return run(start_clock, [&] { return chaos::stopping(trial.setup()); }); });
}

// A history (history_trial.h): its operations and strikes, the served account, into `input`.
void run_history(chaos::TrialContext& trial, chaos::Schedule& draws, checker::TrialInput& input) {
  const chaos::ChaosSetup& setup = trial.setup();
  chaos::NemesisSchedule nemesis = setup.nemesis.value_or(chaos::drawn_schedule(trial.spec.fault));
  ClientTrialSetup clients = client_setup(trial);
  HistoryOutcome outcome = with_clients(trial, [&](const auto& start_clock, const auto& stopped) {
    return run_history_trial(trial, draws, clients, setup.workload, nemesis, start_clock, stopped);
  });
  input.served = outcome.tally();
  input.client_error = outcome.client_error.value_or("");
  input.history = std::move(outcome.operations);
  input.stuck = std::move(outcome.stuck);
  input.strikes = std::move(outcome.strikes);
  input.struck = !input.strikes.empty();
}

// The trial's workers run, of either kind: how each one ended, into `input`.
std::vector<checker::WorkerExit> run_participants(chaos::TrialContext& trial, checker::TrialInput& input) {
  if (!trial.spec.client) return run_workers(trial, [&] { return chaos::stopping(trial.setup()); });
  ClientTrialSetup clients = client_setup(trial);
  ClientTrialOutcome outcome = with_clients(trial, [&](const auto& start_clock, const auto& stopped) {
    return run_client_trial(trial, clients, start_clock, stopped);
  });
  input.served = outcome.tally();
  input.client_error = outcome.client_error.value_or("");
  return std::move(outcome.exits);
}

// The trial's run log's events; none for a client that failed before the clock started.
std::vector<lab::Event> events_of(const chaos::TrialContext& trial, const checker::TrialInput& input) {
  try {
    return lab::read_events(trial.dir);
  } catch (const Error&) {
    if (input.client_error.empty()) throw;
    return {};
  }
}

// What judge() needs from the trial's run: its history, and the account's balance.
std::vector<lab::Event> gather(chaos::TrialContext& trial, const std::vector<checker::WorkerExit>& exits,
                               checker::TrialInput& input) {
  std::vector<lab::Event> events = events_of(trial, input);
  input.history = checker::history_from(events, exits);
  for (const checker::WorkerExit& exit : exits) input.stuck.push_back(exit.stuck);
  if (!trial.spec.client && input.client_error.empty()) {
    input.final_balance = chaos::needing("PostgreSQL", chaos::postgres_at(trial.setup()),
                                         [&] { return trial.job.store.read_balance(trial.account); });
  }
  input.struck = trial.spec.fault->struck(trial.schedule, events);
  return events;
}

// An anomalous trial, or one a client failed, keeps its directory with its history and timeline;
// under keep_incomplete, one with a failed, stuck or unwritten increment too.
void keep_or_remove(const lab::LogDir& dir, const std::vector<lab::Event>& events, const checker::JudgedTrial& trial,
                    bool keep_incomplete) {
  const checker::TrialResult& r = trial.result;
  bool incomplete = !r.not_run && (r.failed_ops > 0 || r.stuck_ops > 0 || r.unwritten_ops > 0);
  if (checker::anomaly(r) || !trial.input.client_error.empty() || (keep_incomplete && incomplete)) {
    checker::write_history(dir.root() / "history.jsonl", trial.input.history);
    if (!events.empty())
      timeline::write_timeline(dir, dir.timeline(), timeline::SvgOptions{dir.root().filename().string()});
  } else {
    std::filesystem::remove_all(dir.root());
  }
}

}  // namespace

checker::JudgedTrial run_trial(const chaos::TrialSpec& spec, long account, chaos::Job& job) {
  auto began = Clock::now();
  lab::LogDir dir(job.setup.dir / "trials" / store::trial_dir_name(spec));
  chaos::Schedule schedule = chaos::schedule_for(spec, job.setup);
  chaos::TrialContext trial{spec, schedule, job, dir, account, LockKey::for_account(account)};
  checker::TrialInput input{spec};
  bool history = spec.client && job.setup.workload.history();
  set_up(trial, faults_of(trial, history));
  std::vector<checker::WorkerExit> exits;
  if (history) {
    run_history(trial, schedule, input);
  } else {
    exits = run_participants(trial, input);
  }
  if (trial.pair) input.lock_reached_replica = trial.pair->lock_reached_replica();
  trial.network.reset();
  trial.pair.reset();
  trial.own.reset();
  if (chaos::stopping(job.setup)) throw chaos::TrialStopped{};
  // A trial that ran while the shared Redis was gone judges nothing: it is not run.
  chaos::on_shared_redis(job, {"PING"});
  std::vector<lab::Event> events = history ? events_of(trial, input) : gather(trial, exits, input);
  input.ms = std::chrono::duration<double, std::milli>(Clock::now() - began).count();
  checker::JudgedTrial judged{input, checker::judge(input)};
  keep_or_remove(dir, events, judged, job.setup.keep_incomplete);
  return judged;
}

}  // namespace rlock::runner
