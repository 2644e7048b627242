#include "chaos/campaign.h"

#include <algorithm>
#include <cstdio>
#include <chrono>
#include <fstream>
#include <map>
#include <optional>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "chaos/client.h"
#include "chaos/client_trial.h"
#include "chaos/history.h"
#include "chaos/job.h"
#include "chaos/nemesis.h"
#include "chaos/schedule.h"
#include "host/child.h"
#include "host/failover_pair.h"
#include "lab/append_file.h"
#include "lab/lab_dir.h"
#include "lab/run_log.h"
#include "rlock/error.h"
#include "rlock/redis_connection.h"
#include "timeline/timeline_svg.h"

namespace rlock {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// The built-in strategy's workers, forked and supervised: how each one ended, and the money the
// account misses by the history's bounds.
std::vector<WorkerExit> run_workers(const TrialSpec& spec, const Schedule& schedule, long account, Job& job,
                                    const LabDir& dir, const RedisAddress& redis,
                                    const std::vector<RedisAddress>& redlock_addresses,
                                    std::optional<FailoverPair>& pair, const LockKey& key) {
  const ChaosSetup& setup = job.setup;
  dir.start_new_run(wall_seconds() + 0.05);  // the workers' clocks start once all are forked
  RunLog log(dir, Lang::en);
  LabSetup lab{redis, setup.conninfo, dir, Lang::en};
  std::function<void()> host_fault = host_fault_for(spec, job, pair, key, log);
  std::vector<WorkerPlan> plans;
  for (const WorkerSchedule& w : schedule.workers) {
    plans.push_back(plan_for(spec.strategy, w, account, setup, redlock_addresses));
  }
  std::vector<pid_t> pids;
  for (const WorkerPlan& plan : plans) pids.push_back(spawn_worker(plan, lab));
  return supervise(spec, schedule, pids, dir, log, host_fault);
}

// The protocol client's trial (client_trial.h), on `servers`: how each client ended, and the
// served account's exact count of stale writes, or the client's error.
ClientTrialOutcome run_clients(const TrialSpec& spec, const Schedule& schedule, Job& job, const LabDir& dir,
                               const std::vector<RedisAddress>& servers, std::optional<FailoverPair>& pair,
                               const LockKey& key) {
  std::vector<std::string> urls;
  for (const RedisAddress& server : servers) urls.push_back(server.url());
  ClientTrialSetup client{*spec.client, urls, key.lock, job.setup.ttl, AccountStore::kInitialBalance};
  std::optional<RunLog> log;
  auto start_clock = [&]() -> const RunLog& {
    dir.start_new_run(wall_seconds());
    return log.emplace(dir, Lang::en);
  };
  auto host_fault = [&] {
    if (std::function<void()> fault = host_fault_for(spec, job, pair, key, *log)) fault();
  };
  std::filesystem::create_directories(dir.root());  // for the clients' stderr
  return run_client_trial(spec, schedule, client, dir, start_clock, host_fault);
}

CheckResult stale_writes_check(const ServedAccount& account) {
  if (account.stale_writes() == 0) return {Validity::valid, "every applied write was computed from the balance it overwrote", 0, 0};
  return {Validity::invalid,
          fmt::format("{} applied writes were computed from a stale balance, losing {}", account.stale_writes(),
                      account.lost_money()),
          account.lost_money(), account.stale_writes()};
}

TrialResult run_trial(const TrialSpec& spec, long account, Job& job) {
  const ChaosSetup& setup = job.setup;
  TrialResult result{spec, {}, {}, {}, 0, 0, 0, {}, {}, false};
  auto began = Clock::now();
  LabDir dir(setup.dir / "trials" / fmt::format("{}-{}-{}", row_name(spec), to_string(spec.fault), spec.number));
  Schedule schedule = schedule_for(spec, setup);
  if (!spec.client) job.store.reset(account);
  LockKey key = LockKey::for_account(account);
  job.redis.checked({"DEL", key.lock, key.fence_counter});
  bool redlock = on_three_servers(spec);
  std::vector<RedisAddress> redlock_addresses = redlock ? redlock_servers_for(job, key) : std::vector<RedisAddress>{};
  std::optional<FailoverPair> pair;
  if (spec.fault == Fault::failover && !redlock) {
    std::filesystem::create_directories(dir.root());  // for the servers' logs
    pair.emplace(failover_port_of(setup, job.number), dir.root());
    if (schedule.replica_lags) pair->stop_replication();
  }
  RedisAddress redis = pair ? pair->address() : setup.redis;

  std::vector<WorkerExit> exits;
  std::optional<ServedAccount> served;
  if (spec.client) {
    ClientTrialOutcome outcome =
        run_clients(spec, schedule, job, dir, redlock ? redlock_addresses : std::vector<RedisAddress>{redis}, pair, key);
    exits = std::move(outcome.exits);
    served = outcome.account;
    result.client_error = outcome.client_error.value_or("");
  } else {
    exits = run_workers(spec, schedule, account, job, dir, redis, redlock_addresses, pair, key);
  }
  pair.reset();

  std::vector<Event> events;
  try {
    events = read_events(dir);
  } catch (const Error&) {
    if (result.client_error.empty()) throw;  // a client that failed before the clock started has none
  }
  std::vector<Operation> history = history_from(events, exits);
  if (result.client_error.empty()) {
    result.lost = served ? stale_writes_check(*served) : guarded([&] {
      return check_lost_updates(AccountStore::kInitialBalance, job.store.read_balance(account), history);
    });
    result.overlaps = guarded([&] { return check_overlaps(history); });
    result.fences = guarded([&] { return check_fences(history); });
  }
  for (const Operation& op : history) {
    if (op.outcome != Outcome::fail) continue;
    ++result.failed_ops;
    result.failed_amount += op.amount;
  }
  result.ms = std::chrono::duration<double, std::milli>(Clock::now() - began).count();
  if (result.anomaly() || !result.client_error.empty()) {
    write_history(dir.root() / "history.jsonl", history);
    if (!events.empty()) write_timeline(dir, dir.timeline(), SvgOptions{dir.root().filename().string()});
  } else {
    std::filesystem::remove_all(dir.root());
  }
  return result;
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
  return TrialResult{spec,
                     check_from(line.value("lost", nlohmann::json::object())),
                     check_from(line.value("overlaps", nlohmann::json::object())),
                     check_from(line.value("fences", nlohmann::json::object())),
                     line.value("failed_ops", 0),
                     line.value("failed_amount", 0LL),
                     line.value("ms", 0.0),
                     line.value("error", ""),
                     line.value("client_error", ""),
                     line.value("not_run", false)};
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

// One job process: every jobs-th trial, one after the other, each result one line in `results`.
void run_job(int job, int jobs, const std::vector<TrialSpec>& specs, const ChaosSetup& setup,
             const std::filesystem::path& results) {
  AppendFile out(results);
  Job context{job, setup, RedisConnection(setup.redis), AccountStore(setup.conninfo), {}};
  for (std::size_t i = static_cast<std::size_t>(job); i < specs.size(); i += static_cast<std::size_t>(jobs)) {
    TrialResult r{specs[i], {}, {}, {}, 0, 0, 0, {}, {}, false};
    const std::optional<ClientSpec>& client = specs[i].client;
    if (client && gave_up_on(setup, client->name)) {
      r.not_run = true;
      r.client_error = fmt::format("not run: client {} failed its first {} trials", client->name, kGiveUpAfter);
    } else {
      try {
        r = run_trial(specs[i], setup.first_account + static_cast<long>(i), context);
      } catch (const std::exception& e) {
        r.error = e.what();
      }
      if (client) {
        AppendFile(client_record(setup, client->name))
            .append_line(nlohmann::json{{"client_error", !r.client_error.empty()}}.dump());
      }
    }
    out.append_line(nlohmann::json{{"i", i},
                                   {"lost", check_json(r.lost)},
                                   {"overlaps", check_json(r.overlaps)},
                                   {"fences", check_json(r.fences)},
                                   {"failed_ops", r.failed_ops},
                                   {"failed_amount", r.failed_amount},
                                   {"ms", r.ms},
                                   {"error", r.error},
                                   {"client_error", r.client_error},
                                   {"not_run", r.not_run}}
                        .dump());
  }
}

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
  auto results_of = [&](int job) { return setup.dir / "trials" / fmt::format(".results-{}.jsonl", job); };
  std::vector<pid_t> pids;
  for (int job = 0; job < jobs; ++job) {
    pids.push_back(fork_child([&] {
      try {
        run_job(job, jobs, specs, setup, results_of(job));
      } catch (const std::exception& e) {
        fmt::print(stderr, "chaos: job {} stopped: {}\n", job, e.what());
        return 1;  // its trials report nothing: they count as anomalies
      }
      return 0;
    }));
  }

  std::map<std::size_t, TrialResult> reported;
  auto collect = [&] {
    reported.clear();
    for (int job = 0; job < jobs; ++job) {
      for (const auto& line : read_lines(results_of(job))) {
        std::size_t i = line.value("i", specs.size());
        if (i < specs.size()) reported.insert_or_assign(i, result_from(line, specs[i]));
      }
    }
  };
  std::size_t running = pids.size();
  while (running > 0) {
    std::this_thread::sleep_for(1s);
    for (pid_t& pid : pids) {
      if (pid > 0 && try_reap(pid)) pid = 0, --running;
    }
    collect();
    progress(reported.size(), static_cast<std::size_t>(std::count_if(
                                  reported.begin(), reported.end(), [](const auto& r) { return r.second.anomaly(); })));
  }

  std::vector<TrialResult> results;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    auto it = reported.find(i);
    results.push_back(it != reported.end()
                          ? it->second
                          : TrialResult{specs[i], {}, {}, {}, 0, 0, 0, "the trial reported no result (its job process died)", {}, false});
  }
  for (int job = 0; job < jobs; ++job) std::filesystem::remove(results_of(job));
  return results;
}

std::vector<TrialResult> run_campaign(const Campaign& campaign, const ChaosSetup& setup) {
  std::vector<TrialSpec> side_by_side, one_by_one;
  auto add_row = [&](Strategy s, const std::optional<ClientSpec>& client) {
    for (Fault f : campaign.faults) {
      for (int n = 0; n < campaign.trials; ++n) {
        (f == Fault::redis_restart ? one_by_one : side_by_side).push_back({s, f, n, client});
      }
    }
  };
  for (Strategy s : campaign.strategies) add_row(s, std::nullopt);
  for (const ClientSpec& c : campaign.clients) add_row(Strategy::ttl, c);
  // Unreachable servers get one error here rather than one per job.
  RedisConnection{setup.redis};
  AccountStore{setup.conninfo};
  if (!one_by_one.empty()) check_restartable(setup.redis);
  std::size_t total = side_by_side.size() + one_by_one.size();
  fmt::print("rlock chaos: seed {}, {} trials a cell, TTL {}ms, {} jobs, {} strategies{} x {} faults{}\n", setup.seed,
             campaign.trials, setup.ttl.count(), campaign.jobs, campaign.strategies.size(),
             campaign.clients.empty() ? "" : fmt::format(" and {} clients", campaign.clients.size()),
             campaign.faults.size(),
             setup.wait == WaitMode::notify ? ", waiters notified" : setup.wait == WaitMode::queue ? ", waiters queued" : "");
  std::fflush(stdout);
  std::filesystem::remove_all(setup.dir / "trials");
  auto has = [](const auto& list, auto value) { return std::find(list.begin(), list.end(), value) != list.end(); };
  bool three_servers = has(campaign.strategies, Strategy::redlock) ||
                       std::any_of(campaign.clients.begin(), campaign.clients.end(),
                                   [](const ClientSpec& c) { return c.servers == 3; });
  check_own_servers(setup, campaign.jobs, has(campaign.faults, Fault::failover), three_servers);
  std::filesystem::create_directories(setup.dir / "trials" / ".clients");
  std::size_t done_before = 0, anomalies_before = 0;
  auto progress = [&](std::size_t done, std::size_t anomalies) {
    fmt::print(stderr, "chaos: {}/{} trials, {} with an anomaly\n", done_before + done, total, anomalies_before + anomalies);
  };
  std::vector<TrialResult> results = run_trials(side_by_side, setup, campaign.jobs, progress);
  done_before = results.size();
  anomalies_before = static_cast<std::size_t>(std::count_if(results.begin(), results.end(), [](const TrialResult& r) { return r.anomaly(); }));
  std::vector<TrialResult> restarts = run_trials(one_by_one, setup, 1, progress);
  results.insert(results.end(), restarts.begin(), restarts.end());

  auto not_run = std::count_if(results.begin(), results.end(), [](const TrialResult& r) { return !r.error.empty(); });
  if (not_run > 0) {
    auto first = std::find_if(results.begin(), results.end(), [](const TrialResult& r) { return !r.error.empty(); });
    fmt::print(stderr, "chaos: {} trials could not run (counted as anomalies); the first: {}\n", not_run, first->error);
  }
  for (const ClientSpec& client : campaign.clients) report_client_errors(client.name, results);
  std::filesystem::remove_all(setup.dir / "trials" / ".clients");
  return results;
}

}  // namespace rlock
