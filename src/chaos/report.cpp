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

double Cell::rate() const { return judged() ? static_cast<double>(anomalies) / static_cast<double>(judged()) : 0; }

std::vector<Cell> tabulate(const Campaign& campaign, const std::vector<TrialResult>& results) {
  std::vector<Cell> cells;
  for (Strategy s : campaign.strategies) {
    for (Fault f : campaign.faults) {
      cells.push_back(Cell{.row = std::string(to_string(s)), .fault = f, .expected_safe = expected_safe(s, f)});
    }
  }
  for (const ClientSpec& client : campaign.clients) {
    for (Fault f : campaign.faults) {
      cells.push_back(Cell{.row = client.name, .fault = f, .expected_safe = client.expected_safe, .client = true});
    }
  }
  for (const TrialResult& r : results) {
    Cell& c = *std::find_if(cells.begin(), cells.end(), [&](const Cell& x) {
      return x.row == row_name(r.spec) && x.client == r.spec.client.has_value() && x.fault == r.spec.fault;
    });
    if (r.not_run) {
      ++c.not_run;
      continue;
    }
    ++c.trials;
    if (!r.client_error.empty()) ++c.client_errors;
    c.ms.push_back(r.ms);
    if (r.lost.validity == Validity::invalid && r.lost.amount > 0) ++c.lost, c.lost_amount += r.lost.amount;
    if (r.overlaps.validity == Validity::invalid) ++c.overlaps;
    if (r.failed_ops > 0) ++c.failed, c.failed_amount += r.failed_amount;
    if (r.anomaly()) ++c.anomalies, c.kept.push_back(std::to_string(r.spec.number));
  }
  return cells;
}

void print_table(const std::vector<Cell>& cells, const ChaosSetup& setup) {
  bool clients = std::any_of(cells.begin(), cells.end(), [](const Cell& c) { return c.client; });
  fmt::print("\n{:<19}{:<14}{:>5} {:>7}{:>6}{:>7}{:>9}{:>7}{:>8}{:>7}  {:<15}{:>9}{}\n", "strategy", "fault", "safe",
             "trials", "lost", "money", "overlaps", "failed", "dropped", "rate", "95% CI", "median",
             clients ? "  client_error" : "");
  for (const Cell& c : cells) {
    auto [low, high] = wilson_interval(c.anomalies, c.judged());
    std::string errors = !clients ? "" : c.not_run ? fmt::format("  {} ({} not run)", c.client_errors, c.not_run)
                                                   : fmt::format("  {}", c.client_errors);
    fmt::print("{:<19}{:<14}{:>5} {:>7}{:>6}{:>7}{:>9}{:>7}{:>8}{:>7.2f}  [{:.2f}, {:.2f}]  {:>6.0f} ms{}\n", c.row,
               to_string(c.fault), c.expected_safe ? "yes" : "no", c.trials, c.lost, c.lost_amount, c.overlaps,
               c.failed, c.failed_amount, c.rate(), low, high, median(c.ms), errors);
  }
  fmt::print("\nsafe: expected to show no anomaly. lost: trials that lost acknowledged money (money: how much).\n"
             "overlaps: trials where two accepted read-to-write sections overlapped. failed/dropped: trials where an\n"
             "increment failed and said so, and the money it did not add. Anomalous trials are kept in {}\n",
             (setup.dir / "trials").string());
  if (clients) {
    fmt::print("client_error: trials a client left unjudged (it broke the protocol, exited or fell silent); they\n"
               "are not in the rate, and are kept too.\n");
  }
}

void write_json(const std::string& path, const std::vector<Cell>& cells, const Campaign& campaign,
                const ChaosSetup& setup) {
  nlohmann::json json_cells = nlohmann::json::array();
  for (const Cell& c : cells) {
    auto [low, high] = wilson_interval(c.anomalies, c.judged());
    json_cells.push_back({{"strategy", c.row}, {"fault", to_string(c.fault)}, {"client", c.client},
                          {"client_error", c.client_errors}, {"not_run", c.not_run},
                          {"expected_safe", c.expected_safe}, {"trials", c.trials},
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

const Cell* find_cell(const std::vector<Cell>& cells, const std::string& row, Fault fault) {
  auto it = std::find_if(cells.begin(), cells.end(), [&](const Cell& c) { return c.row == row && c.fault == fault; });
  return it == cells.end() ? nullptr : &*it;
}

void print_comparison(const Cell& a, const Cell& b) {
  fmt::print("\n");
  for (const Cell* c : {&a, &b}) {
    auto [low, high] = wilson_interval(c->anomalies, c->judged());
    fmt::print("{} under {}: {} of {} trials with an anomaly, rate {:.3f}, 95% CI [{:.3f}, {:.3f}]\n", c->row,
               to_string(c->fault), c->anomalies, c->judged(), c->rate(), low, high);
  }
  double p = fisher_exact_p(a.anomalies, a.judged() - a.anomalies, b.anomalies, b.judged() - b.anomalies);
  fmt::print("Fisher's exact test, two-sided: p = {:.3g}\n", p);
}

void check_expected_safe(const std::vector<Cell>& cells) {
  std::string list;
  for (const Cell& c : cells) {
    if (!c.expected_safe || c.anomalies == 0) continue;
    list += fmt::format("{}{} under {}", list.empty() ? "" : ", ", c.row, to_string(c.fault));
  }
  if (!list.empty()) throw UnexpectedAnomaly(fmt::format("anomalies where none were expected: {}", list));
}

}  // namespace rlock
