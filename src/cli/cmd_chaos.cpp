// rlock chaos [--strategies LIST] [--faults LIST] [--trials N] [--seed S] [--jobs J] [--ttl MS]
// [--failover-port P] [--redlock-port P] [--wait poll|notify] [--quick] [--json FILE]: randomized trials of every strategy under every fault (chaos.h), a table
// of anomaly rates on stdout, progress on stderr. Exits 1 when a strategy that is expected to be
// safe showed an anomaly.
#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "bank/account_store.h"
#include "chaos/campaign.h"
#include "chaos/chaos.h"
#include "chaos/job.h"
#include "cli/commands.h"
#include "rlock/error.h"
#include "rlock/redis_connection.h"
#include "util/stats.h"
#include "rlock/token.h"

namespace rlock::cli {
namespace {

struct ChaosOptions {
  std::vector<std::string> strategies;
  std::vector<std::string> faults;
  int trials = 200;
  std::optional<std::uint64_t> seed;
  int jobs = 8;
  long ttl_ms = 200;
  int failover_port = ChaosSetup{}.failover_port;
  int redlock_port = ChaosSetup{}.redlock_port;
  WaitMode wait = WaitMode::poll;
  bool quick = false;
  std::string json;
};

template <typename T, typename Parse>
std::vector<T> parse_list(const std::vector<std::string>& names, Parse&& parse, const char* what, std::string known) {
  std::vector<T> values;
  for (const std::string& name : names) {
    auto value = parse(name);
    if (!value) throw UsageError(fmt::format("unknown {} '{}' (known: {})", what, name, known));
    values.push_back(*value);
  }
  return values;
}

template <typename T>
std::string names_of(const std::vector<T>& values) {
  std::string out;
  for (const T& v : values) out += (out.empty() ? "" : ",") + std::string(to_string(v));
  return out;
}

struct Cell {
  Strategy strategy;
  Fault fault;
  long trials = 0, lost = 0, overlaps = 0, failed = 0, anomalies = 0;
  long long lost_amount = 0, failed_amount = 0;
  std::vector<double> ms;
  std::vector<std::string> kept;  // trial numbers of the anomalies
};

std::uint64_t random_seed() {
  std::string hex = make_token().hex.substr(0, 12);
  return std::stoull(hex, nullptr, 16);
}

void chaos(const ChaosOptions& options, const GlobalOptions& global) {
  LabSetup lab = global.setup();
  std::vector<std::string> strategy_names = options.strategies, fault_names = options.faults;
  if (options.quick && strategy_names.empty()) strategy_names = {"ttl", "fenced-retry", "fenced-claim", "pg-row-lock"};
  if (options.quick && fault_names.empty()) fault_names = {"none", "pause"};
  std::vector<Strategy> strategies =
      strategy_names.empty() ? all_strategies()
                             : parse_list<Strategy>(strategy_names, strategy_from, "strategy", names_of(all_strategies()));
  std::vector<Fault> faults =
      fault_names.empty() ? all_faults() : parse_list<Fault>(fault_names, fault_from, "fault", names_of(all_faults()));
  int trials = options.quick && options.trials == 200 ? 20 : options.trials;

  ChaosSetup setup{lab.redis, lab.conninfo, lab.dir.root() / "chaos", options.seed.value_or(random_seed()),
                   std::chrono::milliseconds(options.ttl_ms), 100000, options.failover_port, options.redlock_port,
                   options.wait};
  // Trials that restart Redis would crash each other's: they run one at a time, after the others.
  std::vector<TrialSpec> side_by_side, one_by_one;
  for (Strategy s : strategies) {
    for (Fault f : faults) {
      for (int n = 0; n < trials; ++n) (f == Fault::redis_restart ? one_by_one : side_by_side).push_back({s, f, n});
    }
  }
  // Unreachable servers get one error here rather than one per job.
  RedisConnection{setup.redis};
  AccountStore{setup.conninfo};
  if (!one_by_one.empty()) check_restartable(setup.redis);
  std::size_t total = side_by_side.size() + one_by_one.size();
  fmt::print("rlock chaos: seed {}, {} trials a cell, TTL {}ms, {} jobs, {} strategies x {} faults{}\n", setup.seed,
             trials, options.ttl_ms, options.jobs, strategies.size(), faults.size(),
             options.wait == WaitMode::notify ? ", waiters notified" : "");
  std::fflush(stdout);
  std::filesystem::remove_all(setup.dir / "trials");
  check_own_servers(setup, options.jobs, std::find(faults.begin(), faults.end(), Fault::failover) != faults.end(),
                    std::find(strategies.begin(), strategies.end(), Strategy::redlock) != strategies.end());
  std::size_t done_before = 0, anomalies_before = 0;
  auto progress = [&](std::size_t done, std::size_t anomalies) {
    fmt::print(stderr, "chaos: {}/{} trials, {} with an anomaly\n", done_before + done, total, anomalies_before + anomalies);
  };
  std::vector<TrialResult> results = run_trials(side_by_side, setup, options.jobs, progress);
  done_before = results.size();
  anomalies_before = static_cast<std::size_t>(std::count_if(results.begin(), results.end(), [](const TrialResult& r) { return r.anomaly(); }));
  std::vector<TrialResult> restarts = run_trials(one_by_one, setup, 1, progress);
  results.insert(results.end(), restarts.begin(), restarts.end());

  auto not_run = std::count_if(results.begin(), results.end(), [](const TrialResult& r) { return !r.error.empty(); });
  if (not_run > 0) {
    auto first = std::find_if(results.begin(), results.end(), [](const TrialResult& r) { return !r.error.empty(); });
    fmt::print(stderr, "chaos: {} trials could not run (counted as anomalies); the first: {}\n", not_run, first->error);
  }
  std::vector<Cell> cells;
  for (Strategy s : strategies) {
    for (Fault f : faults) cells.push_back(Cell{s, f, 0, 0, 0, 0, 0, 0, 0, {}, {}});
  }
  for (const TrialResult& r : results) {
    Cell& c = *std::find_if(cells.begin(), cells.end(),
                            [&](const Cell& x) { return x.strategy == r.spec.strategy && x.fault == r.spec.fault; });
    ++c.trials;
    c.ms.push_back(r.ms);
    if (r.lost.validity == Validity::invalid && r.lost.amount > 0) ++c.lost, c.lost_amount += r.lost.amount;
    if (r.overlaps.validity == Validity::invalid) ++c.overlaps;
    if (r.failed_ops > 0) ++c.failed, c.failed_amount += r.failed_amount;
    if (r.anomaly()) ++c.anomalies, c.kept.push_back(std::to_string(r.spec.number));
  }

  fmt::print("\n{:<19}{:<14}{:>5} {:>7}{:>6}{:>7}{:>9}{:>7}{:>8}{:>7}  {:<15}{:>9}\n", "strategy", "fault", "safe",
             "trials", "lost", "money", "overlaps", "failed", "dropped", "rate", "95% CI", "median");
  nlohmann::json json_cells = nlohmann::json::array();
  std::vector<std::string> broken;
  for (const Cell& c : cells) {
    auto [low, high] = wilson_interval(c.anomalies, c.trials);
    double rate = c.trials ? static_cast<double>(c.anomalies) / static_cast<double>(c.trials) : 0;
    bool safe = expected_safe(c.strategy, c.fault);
    fmt::print("{:<19}{:<14}{:>5} {:>7}{:>6}{:>7}{:>9}{:>7}{:>8}{:>7.2f}  [{:.2f}, {:.2f}]  {:>6.0f} ms\n",
               to_string(c.strategy), to_string(c.fault), safe ? "yes" : "no", c.trials, c.lost, c.lost_amount,
               c.overlaps, c.failed, c.failed_amount, rate, low, high, median(c.ms));
    if (safe && c.anomalies > 0) broken.push_back(fmt::format("{} under {}", to_string(c.strategy), to_string(c.fault)));
    json_cells.push_back({{"strategy", to_string(c.strategy)}, {"fault", to_string(c.fault)}, {"expected_safe", safe},
                          {"trials", c.trials}, {"anomalies", c.anomalies}, {"lost_updates", c.lost},
                          {"lost_amount", c.lost_amount}, {"overlaps", c.overlaps}, {"failed", c.failed},
                          {"dropped_amount", c.failed_amount}, {"rate", rate}, {"ci_low", low}, {"ci_high", high},
                          {"median_trial_ms", median(c.ms)}, {"kept_trials", c.kept}});
  }
  fmt::print("\nsafe: expected to show no anomaly. lost: trials that lost acknowledged money (money: how much).\n"
             "overlaps: trials where two accepted read-to-write sections overlapped. failed/dropped: trials where an\n"
             "increment failed and said so, and the money it did not add. Anomalous trials are kept in {}\n",
             (setup.dir / "trials").string());
  if (!options.json.empty()) {
    std::ofstream out(options.json);
    out << nlohmann::json{{"seed", setup.seed}, {"ttl_ms", options.ttl_ms}, {"trials_per_cell", trials},
                          {"wait", wait_mode_name(options.wait)},
                          {"cells", json_cells}}
               .dump(2)
        << "\n";
    if (!out) throw Error(fmt::format("cannot write {}: {}", options.json, std::strerror(errno)));
  }
  if (!broken.empty()) {
    std::string list;
    for (const std::string& b : broken) list += (list.empty() ? "" : ", ") + b;
    throw Error(fmt::format("anomalies where none were expected: {}", list));
  }
}

}  // namespace

void register_chaos(CLI::App& app, const GlobalOptions& global) {
  auto options = std::make_shared<ChaosOptions>();
  CLI::App* cmd = app.add_subcommand("chaos", "randomized trials of every strategy under faults, with checkers");
  cmd->add_option("--strategies", options->strategies, "comma-separated: " + names_of(all_strategies()))
      ->delimiter(',');
  cmd->add_option("--faults", options->faults, "comma-separated: " + names_of(all_faults()))->delimiter(',');
  cmd->add_option("--trials", options->trials, "trials a cell (strategy x fault)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->add_option("--seed", options->seed, "replay the trials of this seed (default: a new one, printed)");
  cmd->add_option("--jobs", options->jobs, "trials run side by side")->check(CLI::Range(1, 64))->capture_default_str();
  cmd->add_option("--ttl", options->ttl_ms, "lock TTL in ms")->check(CLI::Range(20L, 60'000L))->capture_default_str();
  cmd->add_option("--failover-port", options->failover_port,
                  "failover trials run a primary and a replica of their own on 127.0.0.1 from this port, two a job")
      ->check(CLI::Range(1024, 65000))
      ->capture_default_str();
  cmd->add_option("--redlock-port", options->redlock_port,
                  "redlock trials run three Redis servers of their own on 127.0.0.1 from this port, three a job")
      ->check(CLI::Range(1024, 65000))
      ->capture_default_str();
  cmd->add_option("--wait", options->wait,
                  "how refused workers of the single-Redis strategies wait: poll (every 10 ms) or notify "
                  "(until the release is announced, 10 ms at most)")
      ->transform(CLI::CheckedTransformer(wait_modes_by_name()))
      ->capture_default_str();
  cmd->add_flag("--quick", options->quick, "ttl, fenced-retry, fenced-claim and pg-row-lock under none and pause, 20 trials a cell");
  cmd->add_option("--json", options->json, "also write the table as JSON to this file");
  cmd->callback([options, &global] { chaos(*options, global); });
}

}  // namespace rlock::cli
