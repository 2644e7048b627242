#include "chaos/campaign.h"

#include <algorithm>
#include <cstdio>
#include <chrono>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "chaos/client.h"
#include "chaos/client_trial.h"
#include "chaos/history.h"
#include "chaos/job.h"
#include "chaos/judge.h"
#include "chaos/nemesis.h"
#include "chaos/netns_job.h"
#include "chaos/network.h"
#include "chaos/run_record.h"
#include "chaos/schedule.h"
#include "host/child.h"
#include "host/failover_pair.h"
#include "lab/append_file.h"
#include "lab/lab_dir.h"
#include "lab/run_log.h"
#include "rlock/error.h"
#include "rlock/redis_connection.h"
#include "timeline/timeline_svg.h"
#include "util/progress.h"

namespace rlock {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// Where the campaign tells its jobs to stop: it lost a server the harness needs.
std::filesystem::path stop_file(const ChaosSetup& setup) { return setup.dir / "trials" / ".stop"; }
bool stopping(const ChaosSetup& setup) { return std::filesystem::exists(stop_file(setup)); }

// A trial cut short because the campaign stops: not run, and its job stops too.
struct TrialStopped {};

// Runs `call`, a step that needs `what` at `address`: its Error becomes HarnessLost, naming both.
template <typename Call>
auto needing(std::string_view what, const std::string& address, Call&& call) -> decltype(call()) {
  try {
    return call();
  } catch (const HarnessLost&) {
    throw;
  } catch (const Error& e) {
    std::string cause = e.what();
    std::replace(cause.begin(), cause.end(), '\n', ' ');  // one line
    while (!cause.empty() && cause.back() == ' ') cause.pop_back();
    std::string named = fmt::format("{} at {}: ", what, address);
    if (cause.starts_with(named)) cause.erase(0, named.size());  // said once is enough
    throw HarnessLost(named + cause);
  }
}

std::string postgres_at(const ChaosSetup& setup) { return describe_conninfo(setup.conninfo); }

// A command to the shared Redis that the job needs: once more when the first fails, since a
// restart trial leaves the job's connection closed (the second reconnects).
void on_shared_redis(Job& job, const std::vector<std::string_view>& command) {
  needing("Redis", job.setup.redis.display(), [&] {
    try {
      job.redis.checked(command);
    } catch (const Error&) {
      job.redis.checked(command);
    }
  });
}

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
    input.served = outcome.tally();
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

nlohmann::json check_json(const CheckResult& c) {
  return {{"validity", to_string(c.validity)}, {"detail", c.detail}, {"amount", c.amount}, {"count", c.count}};
}

CheckResult check_from(const nlohmann::json& j) {
  return {validity_from(j.value("validity", "unknown")), j.value("detail", ""), j.value("amount", 0LL),
          j.value("count", 0)};
}

std::vector<nlohmann::json> read_lines(const std::filesystem::path& path) {
  std::vector<nlohmann::json> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_object()) lines.push_back(std::move(j));
  }
  return lines;
}

// A result line of a job process (see run_job) back as the TrialResult of `spec`.
TrialResult result_from(const nlohmann::json& line, const TrialSpec& spec) {
  return TrialResult{.spec = spec,
                     .lost = check_from(line.value("lost", nlohmann::json::object())),
                     .overlaps = check_from(line.value("overlaps", nlohmann::json::object())),
                     .fences = check_from(line.value("fences", nlohmann::json::object())),
                     .failed_ops = line.value("failed_ops", 0),
                     .failed_amount = line.value("failed_amount", 0LL),
                     .unknown_ops = line.value("unknown_ops", 0),
                     .stuck_ops = line.value("stuck_ops", 0),
                     .balance = check_from(line.value("balance", nlohmann::json::object())),
                     .unwritten_ops = line.value("unwritten_ops", 0),
                     .struck = line.value("struck", false),
                     .lock_reached_replica = line.contains("lock_reached_replica") && line["lock_reached_replica"].is_boolean()
                                                 ? std::optional<bool>(line["lock_reached_replica"].get<bool>())
                                                 : std::nullopt,
                     .ms = line.value("ms", 0.0),
                     .error = line.value("error", ""),
                     .client_error = line.value("client_error", ""),
                     .not_run = line.value("not_run", false)};
}

// The jobs share a record of each client's trials (one line each, in the order they ended), so
// that the campaign gives up on a client whose first kGiveUpAfter trials all ended in a client error.
constexpr std::size_t kGiveUpAfter = 5;

std::filesystem::path client_record(const ChaosSetup& setup, const std::string& name) {
  return setup.dir / "trials" / ".clients" / (name + ".jsonl");
}

bool gave_up_on(const ChaosSetup& setup, const std::string& name) {
  std::vector<nlohmann::json> trials = read_lines(client_record(setup, name));
  if (trials.size() < kGiveUpAfter) return false;
  return std::all_of(trials.begin(), trials.begin() + kGiveUpAfter,
                     [](const nlohmann::json& t) { return t.value("client_error", false); });
}

// The trial `i` of a job, or not run: its client gave up on, or it could not run (a trial cut
// short or a server lost stops the job: TrialStopped, HarnessLost).
TrialInput trial_of_job(const std::vector<TrialSpec>& specs, std::size_t i, Job& job) {
  const ChaosSetup& setup = job.setup;
  TrialInput r{specs[i]};
  const std::optional<ClientSpec>& client = specs[i].client;
  if (client && gave_up_on(setup, client->name)) {
    r.not_run = true;
    r.client_error = fmt::format("not run: client {} failed its first {} trials", client->name, kGiveUpAfter);
    return r;
  }
  try {
    r = run_trial(specs[i], setup.first_account + static_cast<long>(i), job);
  } catch (const HarnessLost&) {
    throw;
  } catch (const std::exception& e) {
    r = TrialInput{specs[i]};
    r.error = e.what();
    r.not_run = true;
  }
  if (client) {
    AppendFile(client_record(setup, client->name))
        .append_line(nlohmann::json{{"client_error", !r.client_error.empty()}}.dump());
  }
  return r;
}

// One job process: every jobs-th trial, one after the other, each result one line in `results`.
// It stops when the campaign does, and at the first server the harness lost, which it reports.
void run_job(int job, int jobs, const std::vector<TrialSpec>& specs, const ChaosSetup& setup,
             const std::filesystem::path& results) {
  AppendFile out(results);
  try {
    std::optional<JobLab> lab;
    ChaosSetup own = setup;  // under --netns, the lab's Redis
    if (setup.netns) {
      lab.emplace(setup.dir / "trials" / fmt::format(".lab-{}", job));
      own.redis = lab->redis();
    }
    Job context{job, own, needing("Redis", own.redis.display(), [&] { return RedisConnection(own.redis); }),
                needing("PostgreSQL", postgres_at(own), [&] { return AccountStore(own.conninfo); }), {},
                lab ? &*lab : nullptr};
    for (std::size_t i = static_cast<std::size_t>(job); i < specs.size() && !stopping(setup);
         i += static_cast<std::size_t>(jobs)) {
      TrialInput input = trial_of_job(specs, i, context);
      if (!setup.run_dir.empty()) record_trial(setup.run_dir, input);
      TrialResult r = judge(input);
      out.append_line(nlohmann::json{{"i", i},
                                     {"lost", check_json(r.lost)},
                                     {"overlaps", check_json(r.overlaps)},
                                     {"fences", check_json(r.fences)},
                                     {"failed_ops", r.failed_ops},
                                     {"failed_amount", r.failed_amount},
                                     {"unknown_ops", r.unknown_ops},
                                     {"stuck_ops", r.stuck_ops},
                                     {"balance", check_json(r.balance)},
                                     {"unwritten_ops", r.unwritten_ops},
                                     {"struck", r.struck},
                                     {"lock_reached_replica", r.lock_reached_replica ? nlohmann::json(*r.lock_reached_replica) : nlohmann::json()},
                                     {"ms", r.ms},
                                     {"error", r.error},
                                     {"client_error", r.client_error},
                                     {"not_run", r.not_run}}
                          .dump());
    }
  } catch (const HarnessLost& e) {
    out.append_line(nlohmann::json{{"harness_lost", e.what()}}.dump());
  } catch (const TrialStopped&) {
    // the campaign stops: the trial cut short is not run
  }
}

// How long the jobs of a stopping campaign have to end their trials before they are killed.
constexpr auto kStopGrace = 2s;

bool restarts_shared_redis(const TrialSpec& spec) { return spec.fault == Fault::redis_restart && !on_three_servers(spec); }

// The campaign's own watch on the shared servers, once a second while jobs run: a server that
// fails two probes in a row is lost (one failure may be a busy machine). The shared Redis is not
// watched while trials crash it on purpose.
class HarnessProbe {
 public:
  HarnessProbe(const ChaosSetup& setup, bool redis) : setup_(setup), redis_(redis) {}

  // The lost server, named, or "".
  std::string operator()() {
    try {
      needing("PostgreSQL", postgres_at(setup_), [&] { AccountStore{setup_.conninfo}; });
      if (redis_) needing("Redis", setup_.redis.display(), [&] { RedisConnection(setup_.redis).checked({"PING"}); });
      failures_ = 0;
    } catch (const HarnessLost& e) {
      if (++failures_ >= 2) return e.what();
    }
    return "";
  }

 private:
  const ChaosSetup& setup_;
  bool redis_;
  int failures_ = 0;
};

// Prints the client's first error, in one line, and how many of its trials were not run.
void report_client_errors(const std::string& name, const std::vector<TrialResult>& results) {
  auto of_client = [&](const TrialResult& r) { return r.spec.client && r.spec.client->name == name; };
  auto first = std::find_if(results.begin(), results.end(),
                            [&](const TrialResult& r) { return of_client(r) && !r.client_error.empty() && !r.not_run; });
  if (first == results.end()) return;
  auto skipped = std::count_if(results.begin(), results.end(), [&](const TrialResult& r) { return of_client(r) && r.not_run; });
  fmt::print(stderr, "chaos: client error: {}{}\n", first->client_error,
             skipped ? fmt::format(" ({} of its trials not run: its first {} all failed this way)", skipped, kGiveUpAfter)
                     : "");
}

}  // namespace

std::vector<TrialResult> run_trials(const std::vector<TrialSpec>& specs, const ChaosSetup& setup, int jobs,
                                    const std::function<void(std::size_t, std::size_t)>& progress) {
  if (specs.empty()) return {};
  std::filesystem::create_directories(setup.dir / "trials");
  std::filesystem::remove(stop_file(setup));
  auto results_of = [&](int job) { return setup.dir / "trials" / fmt::format(".results-{}.jsonl", job); };
  std::vector<pid_t> pids;
  for (int job = 0; job < jobs; ++job) {
    pids.push_back(fork_child([&] {
      try {
        run_job(job, jobs, specs, setup, results_of(job));
      } catch (const std::exception& e) {
        fmt::print(stderr, "chaos: job {} stopped: {}\n", job, e.what());
        return 1;  // its trials report nothing: they are not run
      }
      return 0;
    }));
  }

  std::map<std::size_t, TrialResult> reported;
  std::string lost;  // the first server the harness lost, named
  auto collect = [&] {
    reported.clear();
    for (int job = 0; job < jobs; ++job) {
      for (const auto& line : read_lines(results_of(job))) {
        std::size_t i = line.value("i", specs.size());
        if (i < specs.size()) reported.insert_or_assign(i, result_from(line, specs[i]));
        if (lost.empty()) lost = line.value("harness_lost", "");
      }
    }
  };
  HarnessProbe probe(setup, !std::any_of(specs.begin(), specs.end(), restarts_shared_redis));
  std::size_t running = pids.size();
  bool stopped = false;
  Clock::time_point kill_at{};  // once the campaign stops, jobs not done by then are killed
  while (running > 0) {
    std::this_thread::sleep_for(stopped ? 50ms : 1s);
    for (pid_t& pid : pids) {
      if (pid > 0 && try_reap(pid)) pid = 0, --running;
    }
    collect();
    if (lost.empty()) lost = probe();
    if (!lost.empty() && !stopped) {
      AppendFile(stop_file(setup)).append_line(lost);
      stopped = true;
      kill_at = Clock::now() + kStopGrace;
    }
    if (stopped && Clock::now() > kill_at) {
      for (pid_t& pid : pids) {
        if (pid > 0) kill_and_reap(pid), pid = 0, --running;
      }
    }
    if (!stopped) {
      progress(reported.size(), static_cast<std::size_t>(std::count_if(
                                    reported.begin(), reported.end(), [](const auto& r) { return r.second.anomaly(); })));
    }
  }
  collect();

  std::vector<TrialResult> results;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    auto it = reported.find(i);
    if (it != reported.end()) {
      results.push_back(it->second);
    } else {
      results.push_back(TrialResult{.spec = specs[i],
                                    .error = lost.empty() ? kNoResult : lost,
                                    .not_run = true,
                                    .harness_lost = !lost.empty()});
    }
  }
  for (int job = 0; job < jobs; ++job) std::filesystem::remove(results_of(job));
  return results;
}

void check_harness(const std::vector<TrialResult>& results) {
  auto lost = std::find_if(results.begin(), results.end(), [](const TrialResult& r) { return r.harness_lost; });
  if (lost == results.end()) return;
  auto not_run = std::count_if(results.begin(), results.end(), [](const TrialResult& r) { return r.not_run; });
  throw HarnessLost(fmt::format("the campaign stopped: the harness lost {} ({} trials checked, {} not run)",
                                lost->error, static_cast<long>(results.size()) - not_run, not_run));
}

TrialPlan plan_trials(const Campaign& campaign) {
  TrialPlan plan;
  auto add_row = [&](Strategy s, const std::optional<ClientSpec>& client) {
    for (Fault f : campaign.faults) {
      std::string_view why_not = client ? not_applicable_to_client(f) : not_applicable(s, f);
      if (!why_not.empty()) continue;  // its cell prints n/a
      for (int n = 0; n < campaign.trials; ++n) {
        (f == Fault::redis_restart ? plan.one_by_one : plan.side_by_side).push_back({s, f, n, client});
      }
    }
  };
  for (Strategy s : campaign.strategies) add_row(s, std::nullopt);
  for (const ClientSpec& c : campaign.clients) add_row(Strategy::ttl, c);
  return plan;
}

std::vector<TrialSpec> all_trials(const Campaign& campaign) {
  TrialPlan plan = plan_trials(campaign);
  plan.side_by_side.insert(plan.side_by_side.end(), plan.one_by_one.begin(), plan.one_by_one.end());
  return plan.side_by_side;
}

std::vector<TrialResult> run_campaign(const Campaign& campaign, const ChaosSetup& setup) {
  auto [side_by_side, one_by_one] = plan_trials(campaign);
  // Unreachable servers get one error here rather than one per job.
  RedisConnection{setup.redis};
  AccountStore{setup.conninfo};
  for (Fault f : campaign.faults) {
    if (strikes_server(f)) check_strikable(setup.redis, f);
  }
  ChaosSetup jobs_setup = setup;  // under --netns, PostgreSQL through its Unix socket
  if (setup.netns) {
    check_netns(campaign, setup);
    jobs_setup.conninfo = netns_conninfo(setup.conninfo);
  }
  std::size_t total = side_by_side.size() + one_by_one.size();
  fmt::print("rlock chaos: seed {}, {} trials a cell, TTL {}ms, {} jobs, {} strategies{} x {} faults{}\n", setup.seed,
             campaign.trials, setup.ttl.count(), campaign.jobs, campaign.strategies.size(),
             campaign.clients.empty() ? "" : fmt::format(" and {} clients", campaign.clients.size()),
             campaign.faults.size(),
             setup.wait == WaitMode::notify ? ", waiters notified" : setup.wait == WaitMode::queue ? ", waiters queued" : "");
  std::fflush(stdout);
  if (!setup.run_dir.empty()) write_run_record(campaign, setup);
  std::filesystem::remove_all(setup.dir / "trials");
  auto has = [](const auto& list, auto value) { return std::find(list.begin(), list.end(), value) != list.end(); };
  bool three_servers = has(campaign.strategies, Strategy::redlock) ||
                       std::any_of(campaign.clients.begin(), campaign.clients.end(),
                                   [](const ClientSpec& c) { return c.servers == 3; });
  check_own_servers(setup, campaign.jobs, has(campaign.faults, Fault::failover) || has(campaign.faults, Fault::redis_stall),
                    three_servers);
  std::filesystem::create_directories(setup.dir / "trials" / ".clients");
  std::size_t done_before = 0, anomalies_before = 0;
  Progress line(stderr, "chaos", "trials", total);
  auto progress = [&](std::size_t done, std::size_t anomalies) {
    line.update(done_before + done, fmt::format("{} with an anomaly", anomalies_before + anomalies));
  };
  if (setup.netns) NetnsLab::cleanup_leftovers();
  std::vector<TrialResult> results = run_trials(side_by_side, jobs_setup, campaign.jobs, progress);
  if (setup.netns) NetnsLab::cleanup_leftovers();  // those of a job killed
  done_before = results.size();
  anomalies_before = static_cast<std::size_t>(std::count_if(results.begin(), results.end(), [](const TrialResult& r) { return r.anomaly(); }));
  auto lost = std::find_if(results.begin(), results.end(), [](const TrialResult& r) { return r.harness_lost; });
  if (lost == results.end()) {
    std::vector<TrialResult> restarts = run_trials(one_by_one, jobs_setup, 1, progress);
    results.insert(results.end(), restarts.begin(), restarts.end());
  } else {
    std::string error = lost->error;
    for (const TrialSpec& spec : one_by_one) {
      results.push_back(TrialResult{.spec = spec, .error = error, .not_run = true, .harness_lost = true});
    }
  }

  line.finish();
  auto could_not = [](const TrialResult& r) { return !r.error.empty() && !r.harness_lost; };
  if (auto not_run = std::count_if(results.begin(), results.end(), could_not); not_run > 0) {
    fmt::print(stderr, "chaos: {} trials could not run (not_run, not judged); the first: {}\n", not_run,
               std::find_if(results.begin(), results.end(), could_not)->error);
  }
  for (const ClientSpec& client : campaign.clients) report_client_errors(client.name, results);
  std::filesystem::remove_all(setup.dir / "trials" / ".clients");
  std::filesystem::remove(stop_file(setup));
  if (!setup.run_dir.empty()) {
    keep_trials(setup.run_dir, setup.dir / "trials");
    seal_run(setup.run_dir);
  }
  return results;
}

}  // namespace rlock
