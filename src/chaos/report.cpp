#include "chaos/report.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "rlock/error.h"
#include "util/stats.h"

namespace rlock {

double Cell::rate() const { return trials ? static_cast<double>(anomalies) / static_cast<double>(trials) : 0; }

std::vector<Cell> tabulate(const Campaign& campaign, const std::vector<TrialResult>& results) {
  std::vector<Cell> cells;
  for (Strategy s : campaign.strategies) {
    for (Fault f : campaign.faults) cells.push_back(Cell{s, f, 0, 0, 0, 0, 0, 0, 0, {}, {}});
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
  return cells;
}

void print_table(const std::vector<Cell>& cells, const ChaosSetup& setup) {
  fmt::print("\n{:<19}{:<14}{:>5} {:>7}{:>6}{:>7}{:>9}{:>7}{:>8}{:>7}  {:<15}{:>9}\n", "strategy", "fault", "safe",
             "trials", "lost", "money", "overlaps", "failed", "dropped", "rate", "95% CI", "median");
  for (const Cell& c : cells) {
    auto [low, high] = wilson_interval(c.anomalies, c.trials);
    fmt::print("{:<19}{:<14}{:>5} {:>7}{:>6}{:>7}{:>9}{:>7}{:>8}{:>7.2f}  [{:.2f}, {:.2f}]  {:>6.0f} ms\n",
               to_string(c.strategy), to_string(c.fault), expected_safe(c.strategy, c.fault) ? "yes" : "no", c.trials,
               c.lost, c.lost_amount, c.overlaps, c.failed, c.failed_amount, c.rate(), low, high, median(c.ms));
  }
  fmt::print("\nsafe: expected to show no anomaly. lost: trials that lost acknowledged money (money: how much).\n"
             "overlaps: trials where two accepted read-to-write sections overlapped. failed/dropped: trials where an\n"
             "increment failed and said so, and the money it did not add. Anomalous trials are kept in {}\n",
             (setup.dir / "trials").string());
}

void write_json(const std::string& path, const std::vector<Cell>& cells, const Campaign& campaign,
                const ChaosSetup& setup) {
  nlohmann::json json_cells = nlohmann::json::array();
  for (const Cell& c : cells) {
    auto [low, high] = wilson_interval(c.anomalies, c.trials);
    json_cells.push_back({{"strategy", to_string(c.strategy)}, {"fault", to_string(c.fault)},
                          {"expected_safe", expected_safe(c.strategy, c.fault)}, {"trials", c.trials},
                          {"anomalies", c.anomalies}, {"lost_updates", c.lost}, {"lost_amount", c.lost_amount},
                          {"overlaps", c.overlaps}, {"failed", c.failed}, {"dropped_amount", c.failed_amount},
                          {"rate", c.rate()}, {"ci_low", low}, {"ci_high", high}, {"median_trial_ms", median(c.ms)},
                          {"kept_trials", c.kept}});
  }
  std::ofstream out(path);
  out << nlohmann::json{{"seed", setup.seed}, {"ttl_ms", setup.ttl.count()}, {"trials_per_cell", campaign.trials},
                        {"wait", wait_mode_name(setup.wait)},
                        {"cells", json_cells}}
             .dump(2)
      << "\n";
  if (!out) throw Error(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
}

void check_expected_safe(const std::vector<Cell>& cells) {
  std::string list;
  for (const Cell& c : cells) {
    if (!expected_safe(c.strategy, c.fault) || c.anomalies == 0) continue;
    list += fmt::format("{}{} under {}", list.empty() ? "" : ", ", to_string(c.strategy), to_string(c.fault));
  }
  if (!list.empty()) throw UnexpectedAnomaly(fmt::format("anomalies where none were expected: {}", list));
}

}  // namespace rlock
