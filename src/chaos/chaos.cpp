#include "chaos/chaos.h"

#include <signal.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <random>
#include <thread>

#include <fmt/format.h>

#include "bank/account_store.h"
#include "lab/append_file.h"
#include "util/enum_names.h"
#include "rlock/error.h"
#include "host/child.h"
#include "host/failover_pair.h"
#include "lab/host_events.h"
#include "lab/lab_worker.h"
#include "host/local_redis.h"
#include "rlock/redis_connection.h"
#include "host/redis_server.h"
#include "lab/run_log.h"
#include "timeline/timeline_svg.h"

namespace rlock {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr NameTable<Strategy, 10> kStrategies{{
    {Strategy::ttl, "ttl"},
    {Strategy::watchdog, "watchdog"},
    {Strategy::check_before_write, "check-before-write"},
    {Strategy::redlock, "redlock"},
    {Strategy::fenced, "fenced"},
    {Strategy::fenced_retry, "fenced-retry"},
    {Strategy::fenced_claim, "fenced-claim"},
    {Strategy::pg_atomic, "pg-atomic"},
    {Strategy::pg_row_lock, "pg-row-lock"},
    {Strategy::pg_advisory, "pg-advisory"},
}};
constexpr NameTable<Fault, 6> kFaults{{{Fault::none, "none"},
                                       {Fault::pause, "pause"},
                                       {Fault::slow, "slow"},
                                       {Fault::kill, "kill"},
                                       {Fault::redis_restart, "redis-restart"},
                                       {Fault::failover, "failover"}}};

constexpr auto kTrialLimit = 10s;  // a trial still running then is killed, its workers' outcomes unknown
constexpr auto kBusyRetry = 10ms;

// FNV-1a: a hash of a name that is the same on every machine and build.
std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return hash;
}

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

struct WorkerSchedule {
  std::string name;
  long long amount = 0;
  double delay_s = 0;
  double work_s = 0;
};

// The generator: who starts when, adds what, works how long, and the fault's victim and length.
struct Schedule {
  std::vector<WorkerSchedule> workers;
  std::size_t target = 0;  // the worker the nemesis picks: the first to start, likely the first holder
  double pause_s = 0;
  bool replica_lags = false;  // failover: the replica stopped replicating before the trial began
};

Schedule schedule_for(const TrialSpec& spec, const ChaosSetup& setup) {
  std::mt19937_64 rng(splitmix(setup.seed ^ splitmix(fnv1a(to_string(spec.strategy)) ^
                                                      splitmix(fnv1a(to_string(spec.fault)) + static_cast<std::uint64_t>(spec.number)))));
  auto uniform = [&](double low, double high) { return std::uniform_real_distribution<double>(low, high)(rng); };
  double ttl_s = std::chrono::duration<double>(setup.ttl).count();
  Schedule schedule;
  int count = std::uniform_int_distribution<int>(2, 4)(rng);
  for (int i = 0; i < count; ++i) {
    schedule.workers.push_back(WorkerSchedule{std::string(1, static_cast<char>('A' + i)),
                                              std::uniform_int_distribution<long long>(1, 100)(rng),
                                              uniform(0, 0.05), uniform(0.005, 0.03)});
  }
  auto first = std::min_element(schedule.workers.begin(), schedule.workers.end(),
                                [](const auto& a, const auto& b) { return a.delay_s < b.delay_s; });
  schedule.target = static_cast<std::size_t>(first - schedule.workers.begin());
  if (spec.fault == Fault::slow) schedule.workers[schedule.target].work_s = ttl_s * uniform(1.5, 3.0);
  // A restart or failover must find the holder mid-job: its work takes half its TTL or more, and
  // still ends well inside it, so only the fault can take its lock away.
  if (spec.fault == Fault::redis_restart || spec.fault == Fault::failover) {
    schedule.workers[schedule.target].work_s = ttl_s * uniform(0.5, 0.8);
  }
  schedule.pause_s = ttl_s * uniform(1.0, 2.5);
  // Half the failovers lose the writes of the whole trial, the lock among them; the others lose
  // nothing, so a failover alone is no anomaly.
  if (spec.fault == Fault::failover) schedule.replica_lags = uniform(0, 1) < 0.5;
  return schedule;
}

WorkerPlan plan_for(Strategy strategy, const WorkerSchedule& w, long account, const ChaosSetup& setup,
                    const std::vector<RedisAddress>& redlock) {
  WorkerPlan plan;
  plan.name = w.name;
  plan.amount = w.amount;
  plan.account = account;
  plan.ttl = setup.ttl;
  plan.delay_seconds = w.delay_s;
  plan.pause_seconds = w.work_s;
  plan.busy_retry = kBusyRetry;
  plan.watchdog = strategy == Strategy::watchdog;
  plan.check_before_write = strategy == Strategy::check_before_write;
  plan.fenced = strategy == Strategy::fenced || strategy == Strategy::fenced_retry || strategy == Strategy::fenced_claim;
  plan.retry = strategy == Strategy::fenced_retry || strategy == Strategy::fenced_claim;
  plan.claim_fence = strategy == Strategy::fenced_claim;
  if (strategy == Strategy::pg_atomic) plan.pg = PgStrategy::atomic;
  if (strategy == Strategy::pg_row_lock) plan.pg = PgStrategy::row_lock;
  if (strategy == Strategy::pg_advisory) plan.pg = PgStrategy::advisory;
  if (strategy == Strategy::redlock) plan.redlock = redlock;
  if (plan.pg == PgStrategy::none && plan.redlock.empty()) plan.wait = setup.wait;
  return plan;
}

// The client: a worker process. Exit codes as rlock's: 0, 1 failed, 3 write rejected.
pid_t spawn_worker(const WorkerPlan& plan, const LabSetup& setup) {
  return fork_child([&] {
    try {
      run_worker(plan, setup);
    } catch (const WriteRejected&) {
      return 3;
    }
    return 0;
  });
}

void signal_worker(const RunLog& log, pid_t pid, int number, const char* name, const std::string& worker) {
  try {
    signal_and_record(log, pid, number, worker, EventKind::signal, {{"signal", name}, {"target", worker}});
  } catch (const Error&) {
    // the worker has just exited: nothing to stop or continue
  }
}

// The nemesis and the reaper: applies the fault once the target has read (`host_fault` for the
// faults of Redis's host), and waits (bounded) for every worker. Returns how each one ended.
std::vector<WorkerExit> supervise(const TrialSpec& spec, const Schedule& schedule, const std::vector<pid_t>& pids,
                                  const LabDir& dir, const RunLog& log, const std::function<void()>& host_fault) {
  std::vector<WorkerExit> exits;
  for (const WorkerSchedule& w : schedule.workers) exits.push_back(WorkerExit{w.name, w.amount, false, 0});
  std::vector<bool> done(pids.size(), false);
  auto ended = [&](std::size_t i, const ChildExit& exit) {
    done[i] = true;
    exits[i].exited = exit.exited();
    exits[i].code = exit.code();
  };
  const WorkerSchedule& target = schedule.workers[schedule.target];
  pid_t target_pid = pids[schedule.target];
  bool struck = false, paused = false;
  Clock::time_point resume_at{};
  auto deadline = Clock::now() + kTrialLimit;

  for (;;) {
    for (std::size_t i = 0; i < pids.size(); ++i) {
      if (done[i]) continue;
      if (std::optional<ChildExit> exit = try_reap(pids[i])) ended(i, *exit);
    }
    if (std::all_of(done.begin(), done.end(), [](bool d) { return d; })) return exits;
    if (!struck && spec.fault != Fault::none && spec.fault != Fault::slow && !done[schedule.target] &&
        std::filesystem::exists(dir.read_marker(target.name))) {
      struck = true;
      if (host_fault) {
        host_fault();
      } else if (spec.fault == Fault::kill) {
        signal_worker(log, target_pid, SIGKILL, "SIGKILL", target.name);
      } else {
        signal_worker(log, target_pid, SIGSTOP, "SIGSTOP", target.name);
        paused = true;
        resume_at = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(schedule.pause_s));
      }
    }
    if (paused && Clock::now() >= resume_at) {
      signal_worker(log, target_pid, SIGCONT, "SIGCONT", target.name);
      paused = false;
    }
    if (Clock::now() > deadline) {
      for (std::size_t i = 0; i < pids.size(); ++i) {
        if (!done[i]) ended(i, kill_and_reap(pids[i]));
      }
    }
    std::this_thread::sleep_for(2ms);
  }
}

void write_history(const std::filesystem::path& path, const std::vector<Operation>& history) {
  AppendFile file(path);
  for (const Operation& op : history) {
    nlohmann::json sections = nlohmann::json::array();
    for (const Section& s : op.sections) {
      nlohmann::json section{{"read_at", s.read_at}, {"wrote_at", s.wrote_at}, {"accepted", s.accepted}};
      if (s.fence) section["fence"] = *s.fence;
      sections.push_back(section);
    }
    file.append_line(nlohmann::json{{"worker", op.worker}, {"f", "add"}, {"value", op.amount},
                                    {"type", to_string(op.outcome)}, {"sections", sections}}
                         .dump());
  }
}

int failover_port_of(const ChaosSetup& setup, int job) { return setup.failover_port + 2 * job; }

using RedlockServers = std::vector<std::unique_ptr<LocalRedis>>;

// Job `job`'s three Redlock servers, logging into `dir`.
RedlockServers start_redlock_servers(const ChaosSetup& setup, int job, const std::filesystem::path& dir) {
  RedlockServers servers;
  for (int i = 0; i < 3; ++i) servers.push_back(std::make_unique<LocalRedis>(setup.redlock_port + 3 * job + i, dir));
  return servers;
}

// What a job process holds for its trials, one after the other.
struct Job {
  int number;
  const ChaosSetup& setup;
  RedisConnection redis;
  AccountStore store;
  RedlockServers redlock;  // started for the job's first redlock trial
};

// The job's Redlock servers (started for its first redlock trial), rid of `key`'s lock.
std::vector<RedisAddress> redlock_servers_for(Job& job, const LockKey& key) {
  if (job.redlock.empty()) {
    std::filesystem::path logs = job.setup.dir / "trials" / ".redlock-servers";
    std::filesystem::create_directories(logs);
    job.redlock = start_redlock_servers(job.setup, job.number, logs);
  }
  std::vector<RedisAddress> addresses;
  for (auto& server : job.redlock) {
    server->connection().checked({"DEL", key.lock});
    addresses.push_back(server->address());
  }
  return addresses;
}

// The host's fault of the trial on the Redis its workers use, or none for the workers' faults.
// Redlock's servers take a restart and a failover alike: one of them comes back empty.
std::function<void()> host_fault_for(const TrialSpec& spec, Job& job, std::optional<FailoverPair>& pair,
                                     const LockKey& key, const RunLog& log) {
  bool on_redis = spec.fault == Fault::redis_restart || spec.fault == Fault::failover;
  if (!on_redis) return {};
  if (spec.strategy == Strategy::redlock) {
    return [&server = *job.redlock.front(), &key, &log] {
      record_crash(log, crash_server(server.connection(), key,
                                     {[&] { server.kill(); }, [&]() -> RedisConnection& { server.restart(); return server.connection(); }}));
    };
  }
  if (pair) return [&] { record_crash(log, pair->fail_over(key)); };
  return [&] { record_crash(log, crash_redis(job.redis, key, /*start_again=*/true)); };
}

TrialResult run_trial(const TrialSpec& spec, long account, Job& job) {
  const ChaosSetup& setup = job.setup;
  TrialResult result{spec, {}, {}, {}, 0, 0, 0, {}};
  auto began = Clock::now();
  LabDir dir(setup.dir / "trials" / fmt::format("{}-{}-{}", to_string(spec.strategy), to_string(spec.fault), spec.number));
  Schedule schedule = schedule_for(spec, setup);
  job.store.reset(account);
  LockKey key = LockKey::for_account(account);
  job.redis.checked({"DEL", key.lock, key.fence_counter});
  bool redlock = spec.strategy == Strategy::redlock;
  std::vector<RedisAddress> redlock_addresses = redlock ? redlock_servers_for(job, key) : std::vector<RedisAddress>{};
  std::optional<FailoverPair> pair;
  if (spec.fault == Fault::failover && !redlock) {
    std::filesystem::create_directories(dir.root());  // for the servers' logs
    pair.emplace(failover_port_of(setup, job.number), dir.root());
    if (schedule.replica_lags) pair->stop_replication();
  }
  dir.start_new_run(wall_seconds() + 0.05);  // the workers' clocks start once all are forked
  RunLog log(dir, Lang::en);
  LabSetup lab{pair ? pair->address() : setup.redis, setup.conninfo, dir, Lang::en};
  std::function<void()> host_fault = host_fault_for(spec, job, pair, key, log);

  std::vector<WorkerPlan> plans;
  for (const WorkerSchedule& w : schedule.workers) {
    plans.push_back(plan_for(spec.strategy, w, account, setup, redlock_addresses));
  }
  std::vector<pid_t> pids;
  for (const WorkerPlan& plan : plans) pids.push_back(spawn_worker(plan, lab));
  std::vector<WorkerExit> exits = supervise(spec, schedule, pids, dir, log, host_fault);
  pair.reset();

  std::vector<Event> events = read_events(dir);
  long long final_balance = job.store.read_balance(account);
  std::vector<Operation> history = history_from(events, exits);
  result.lost = guarded([&] { return check_lost_updates(AccountStore::kInitialBalance, final_balance, history); });
  result.overlaps = guarded([&] { return check_overlaps(history); });
  result.fences = guarded([&] { return check_fences(history); });
  for (const Operation& op : history) {
    if (op.outcome != Outcome::fail) continue;
    ++result.failed_ops;
    result.failed_amount += op.amount;
  }
  result.ms = std::chrono::duration<double, std::milli>(Clock::now() - began).count();
  if (result.anomaly()) {
    write_history(dir.root() / "history.jsonl", history);
    write_timeline(dir, dir.timeline(), SvgOptions{dir.root().filename().string()});
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

// A result line of a job process (see run_job) back as the TrialResult of `spec`.
TrialResult result_from(const nlohmann::json& line, const TrialSpec& spec) {
  return TrialResult{spec,
                     check_from(line.value("lost", nlohmann::json::object())),
                     check_from(line.value("overlaps", nlohmann::json::object())),
                     check_from(line.value("fences", nlohmann::json::object())),
                     line.value("failed_ops", 0),
                     line.value("failed_amount", 0LL),
                     line.value("ms", 0.0),
                     line.value("error", "")};
}

// One job process: every jobs-th trial, one after the other, each result one line in `results`.
void run_job(int job, int jobs, const std::vector<TrialSpec>& specs, const ChaosSetup& setup,
             const std::filesystem::path& results) {
  AppendFile out(results);
  Job context{job, setup, RedisConnection(setup.redis), AccountStore(setup.conninfo), {}};
  for (std::size_t i = static_cast<std::size_t>(job); i < specs.size(); i += static_cast<std::size_t>(jobs)) {
    TrialResult r{specs[i], {}, {}, {}, 0, 0, 0, {}};
    try {
      r = run_trial(specs[i], setup.first_account + static_cast<long>(i), context);
    } catch (const std::exception& e) {
      r.error = e.what();
    }
    out.append_line(nlohmann::json{{"i", i},
                                   {"lost", check_json(r.lost)},
                                   {"overlaps", check_json(r.overlaps)},
                                   {"fences", check_json(r.fences)},
                                   {"failed_ops", r.failed_ops},
                                   {"failed_amount", r.failed_amount},
                                   {"ms", r.ms},
                                   {"error", r.error}}
                        .dump());
  }
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

}  // namespace

std::string_view to_string(Strategy strategy) { return name_in(kStrategies, strategy); }
std::string_view to_string(Fault fault) { return name_in(kFaults, fault); }
std::optional<Strategy> strategy_from(std::string_view name) { return value_in(kStrategies, name); }
std::optional<Fault> fault_from(std::string_view name) { return value_in(kFaults, name); }

const std::vector<Strategy>& all_strategies() {
  static const std::vector<Strategy> all = values_in(kStrategies);
  return all;
}

const std::vector<Fault>& all_faults() {
  static const std::vector<Fault> all = values_in(kFaults);
  return all;
}

bool expected_safe(Strategy strategy, Fault) {
  switch (strategy) {
    case Strategy::fenced_claim:
    case Strategy::pg_atomic:
    case Strategy::pg_row_lock:
    case Strategy::pg_advisory:
      return true;
    default:
      return false;
  }
}

void check_restartable(const RedisAddress& address) {
  RedisConnection redis(address);
  if (local_redis_process(redis).config_file.empty()) {
    throw UsageError(fmt::format("fault redis-restart needs a Redis started from a config file; {} was not",
                                 address.display()));
  }
}

void check_own_servers(const ChaosSetup& setup, int jobs, bool failover, bool redlock) {
  std::filesystem::path logs = setup.dir / "trials" / ".servers-check";
  std::filesystem::create_directories(logs);
  for (int job = 0; job < jobs; ++job) {
    if (failover) FailoverPair pair(failover_port_of(setup, job), logs);
    if (redlock) start_redlock_servers(setup, job, logs);
  }
  std::filesystem::remove_all(logs);
}

bool TrialResult::anomaly() const {
  return !error.empty() || lost.validity != Validity::valid || overlaps.validity != Validity::valid ||
         fences.validity != Validity::valid;
}

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
                          : TrialResult{specs[i], {}, {}, {}, 0, 0, 0, "the trial reported no result (its job process died)"});
  }
  for (int job = 0; job < jobs; ++job) std::filesystem::remove(results_of(job));
  return results;
}

}  // namespace rlock
