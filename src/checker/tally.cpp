#include "checker/tally.h"

#include <algorithm>

#include <fmt/format.h>

#include "checker/classification.h"
#include "results/chaos_file.h"
#include "rlock/error.h"
#include "util/stats.h"

namespace rlock::checker {

double Cell::rate() const { return judged() ? static_cast<double>(anomalies) / static_cast<double>(judged()) : 0; }

namespace {

constexpr std::string_view kLagging = "lagging", kInSync = "in-sync";

// The cell, or under failover of one Redis its two: the replica lagging, and in sync.
void add_cells(std::vector<Cell>& cells, Cell cell, bool one_redis) {
  if (!cell.fault->splits_by_replica() || !one_redis || !cell.not_applicable.empty()) {
    cells.push_back(cell);
    return;
  }
  for (std::string_view replica : {kLagging, kInSync}) {
    cell.replica = replica;
    cells.push_back(cell);
  }
}

std::string_view replica_of(const TrialResult& r) {
  return r.lock_reached_replica == std::optional<bool>(false) ? kLagging : kInSync;
}

}  // namespace

std::string fault_label(const Cell& c) {
  if (c.replica.empty()) return std::string(to_string(c.fault));
  return fmt::format("{}/{}", to_string(c.fault), c.replica == kLagging ? "lag" : "sync");
}

std::vector<Cell> empty_table(const chaos::Campaign& campaign) {
  std::vector<Cell> cells;
  for (lab::Strategy s : campaign.strategies) {
    for (chaos::Fault f : campaign.faults) {
      add_cells(cells,
                Cell{.row = std::string(to_string(s)),
                     .fault = f,
                     .expected_safe = chaos::expected_safe(s, f),
                     .not_applicable = chaos::not_applicable(s, f, campaign.topology)},
                lab::lock_servers(s) != 3);
    }
  }
  for (const protocol::ClientSpec& client : campaign.clients) {
    for (chaos::Fault f : campaign.faults) {
      add_cells(cells,
                Cell{.row = client.name,
                     .fault = f,
                     .expected_safe = client.expected_safe,
                     .client = true,
                     .not_applicable = chaos::not_applicable_to_client(f, client, campaign.topology)},
                client.servers == 1);
    }
  }
  return cells;
}

void tally(std::vector<Cell>& cells, const TrialResult& r) {
  Cell& c = *std::find_if(cells.begin(), cells.end(), [&](const Cell& x) {
    return x.row == chaos::row_name(r.spec) && x.client == r.spec.client.has_value() && x.fault == r.spec.fault &&
           (x.replica.empty() || x.replica == replica_of(r));
  });
  if (r.not_run) {
    ++c.not_run;
    return;
  }
  ++c.trials;
  Classification k = classify(r);
  if (k.client_error) ++c.client_errors;
  if (!k.judged) ++c.unjudged;
  c.ms.push_back(r.ms);
  if (k.lost_update) ++c.lost, c.lost_amount += r.lost.amount;
  if (k.overlap) ++c.overlaps;
  if (r.failed_ops > 0) ++c.failed, c.failed_amount += r.failed_amount;
  c.unknown += r.unknown_ops;
  c.stuck += r.stuck_ops;
  c.unwritten += r.unwritten_ops;
  if (r.balance.validity == Validity::invalid) ++c.created, c.created_amount += r.balance.amount;
  if (r.struck) ++c.struck;
  c.increments += r.increments;
  c.lost_increments += r.lost_increments;
  c.faults_struck += r.faults_struck;
  c.faults_followed_by_loss += r.faults_followed_by_loss;
  if (k.harm() == Harm::money) ++c.anomalies, c.kept.push_back(std::to_string(r.spec.number));
}

std::vector<Cell> tabulate(const chaos::Campaign& campaign, const std::vector<TrialResult>& results) {
  std::vector<Cell> cells = empty_table(campaign);
  for (const TrialResult& r : results) tally(cells, r);
  return cells;
}

namespace {

// The width of the tables' first column: the built-in strategies' names, or a client's longer one.
size_t row_column_width(const std::vector<Cell>& cells) {
  size_t width = 19;
  for (const Cell& c : cells) width = std::max(width, c.row.size() + 1);
  return width;
}

// The histories' figures, each rate with its 95% Wilson interval: increments lost of those sent,
// and nemesis operations followed by a loss of those struck.
void print_histories(const std::vector<Cell>& cells) {
  if (std::none_of(cells.begin(), cells.end(), [](const Cell& c) { return c.increments > 0; })) return;
  size_t row_width = row_column_width(cells);
  fmt::print("\n{:<{}}{:<14}{:>11}{:>6}  {:<15}{:>7}{:>11}  {:<15}\n", "history", row_width, "fault", "increments",
             "lost", "95% CI", "struck", "then_loss", "95% CI");
  for (const Cell& c : cells) {
    if (c.increments == 0) continue;
    auto [lost_low, lost_high] = util::wilson_interval(c.lost_increments, c.increments);
    auto [loss_low, loss_high] = util::wilson_interval(c.faults_followed_by_loss, c.faults_struck);
    fmt::print("{:<{}}{:<14}{:>11}{:>6}  [{:.3f}, {:.3f}]{:>7}{:>11}  [{:.2f}, {:.2f}]\n", c.row, row_width,
               fault_label(c), c.increments, c.lost_increments, lost_low, lost_high, c.faults_struck,
               c.faults_followed_by_loss, loss_low, loss_high);
  }
  fmt::print(
      "history: a cell of histories, its workers locking again and again. lost: increments whose applied\n"
      "write a stale write overwrote. struck: nemesis operations struck; then_loss: those followed by a stale\n"
      "write before the next one struck.\n");
}

}  // namespace

void print_table(const std::vector<Cell>& cells, const chaos::ChaosSetup& setup) {
  bool clients = std::any_of(cells.begin(), cells.end(), [](const Cell& c) { return c.client; });
  size_t row_width = row_column_width(cells);
  fmt::print("\n{:<{}}{:<14}{:>5} {:>7}{:>7}{:>8}{:>6}{:>7}{:>9}{:>7}{:>8}{:>8}{:>6}{:>7}  {:<15}{:>9}{}\n", "strategy",
             row_width, "fault", "safe", "trials", "struck", "not_run", "lost", "money", "overlaps", "failed",
             "dropped", "unknown", "stuck", "rate", "95% CI", "median",
             clients ? "  client_error unwritten created  extra" : "");
  for (const Cell& c : cells) {
    if (!c.not_applicable.empty()) {
      fmt::print("{:<{}}{:<14}{:>5}   n/a: {}\n", c.row, row_width, fault_label(c), c.expected_safe ? "yes" : "no",
                 c.not_applicable);
      continue;
    }
    if (c.trials == 0 && c.not_run == 0) {  // a failover's half that no trial fell in: no rate to give
      fmt::print("{:<{}}{:<14}{:>5} {:>7}   no trial fell in this cell\n", c.row, row_width, fault_label(c),
                 c.expected_safe ? "yes" : "no", 0);
      continue;
    }
    auto [low, high] = util::wilson_interval(c.anomalies, c.judged());
    std::string errors =
        clients ? fmt::format("  {:>12} {:>9} {:>7} {:>6}", c.client_errors, c.unwritten, c.created, c.created_amount)
                : "";
    fmt::print(
        "{:<{}}{:<14}{:>5} {:>7}{:>7}{:>8}{:>6}{:>7}{:>9}{:>7}{:>8}{:>8}{:>6}{:>7.2f}  [{:.2f}, {:.2f}]  {:>6.0f} "
        "ms{}\n",
        c.row, row_width, fault_label(c), c.expected_safe ? "yes" : "no", c.trials, c.struck, c.not_run, c.lost,
        c.lost_amount, c.overlaps, c.failed, c.failed_amount, c.unknown, c.stuck, c.rate(), low, high,
        util::median(c.ms), errors);
  }
  fmt::print(
      "\nsafe: expected to show no anomaly. struck: trials in which the fault struck. not_run: trials that\n"
      "could not run, in no rate. lost: trials that lost acknowledged money (money: how much). overlaps: trials\n"
      "where two accepted read-to-write sections overlapped. failed/dropped: trials where an increment failed\n"
      "and said so, and the money it did not add. unknown: increments of unknown outcome (killed, or a write\n"
      "whose answer was lost). stuck: increments still running when their trial's time ran out. n/a: the\n"
      "fault cannot strike or cannot matter to the strategy (docs/chaos.md); not run. Anomalous trials are\n"
      "kept in {}\n",
      (setup.dir / "trials").string());
  print_histories(cells);
  if (clients) {
    fmt::print(
        "client_error: trials that ended in a client's error (it broke the protocol, exited or fell\n"
        "silent), kept too; what the harness served before is judged, in the rate, and a trial with no\n"
        "write served is not. unwritten: increments a client reported done with no write of theirs\n"
        "applied and no error, an anomaly. created: trials whose balance ended above the initial one plus\n"
        "each increment with an applied write, once (extra: how much), an anomaly.\n");
  }
}

void write_json(const std::string& path, const std::vector<Cell>& cells, const chaos::Campaign& campaign,
                const chaos::ChaosSetup& setup) {
  results::ChaosFile file{
      setup.seed, static_cast<long>(setup.ttl.count()), campaign.trials, std::string(wait_mode_name(setup.wait)), {}};
  for (const Cell& c : cells) {
    auto [low, high] = util::wilson_interval(c.anomalies, c.judged());
    file.cells.push_back(results::ChaosFileCell{.strategy = c.row,
                                                .fault = std::string(to_string(c.fault)),
                                                .client = c.client,
                                                .client_error = c.client_errors,
                                                .unjudged = c.unjudged,
                                                .not_run = c.not_run,
                                                .expected_safe = c.expected_safe,
                                                .trials = c.trials,
                                                .anomalies = c.anomalies,
                                                .lost_updates = c.lost,
                                                .lost_amount = c.lost_amount,
                                                .overlaps = c.overlaps,
                                                .failed = c.failed,
                                                .dropped_amount = c.failed_amount,
                                                .unknown = c.unknown,
                                                .stuck = c.stuck,
                                                .unwritten = c.unwritten,
                                                .created = c.created,
                                                .created_amount = c.created_amount,
                                                .struck = c.struck,
                                                .rate = c.rate(),
                                                .ci_low = low,
                                                .ci_high = high,
                                                .median_trial_ms = util::median(c.ms),
                                                .kept_trials = c.kept,
                                                .not_applicable = std::string(c.not_applicable),
                                                .replica = std::string(c.replica),
                                                .increments = c.increments,
                                                .lost_increments = c.lost_increments,
                                                .faults_struck = c.faults_struck,
                                                .faults_followed_by_loss = c.faults_followed_by_loss});
  }
  results::write_chaos_file(path, file);
}

const Cell* find_cell(const std::vector<Cell>& cells, const std::string& row, chaos::Fault fault) {
  auto it = std::find_if(cells.begin(), cells.end(), [&](const Cell& c) { return c.row == row && c.fault == fault; });
  return it == cells.end() ? nullptr : &*it;
}

void print_comparison(const Cell& a, const Cell& b) {
  fmt::print("\n");
  for (const Cell* c : {&a, &b}) {
    auto [low, high] = util::wilson_interval(c->anomalies, c->judged());
    fmt::print("{} under {}: {} of {} trials with an anomaly, rate {:.3f}, 95% CI [{:.3f}, {:.3f}]\n", c->row,
               to_string(c->fault), c->anomalies, c->judged(), c->rate(), low, high);
  }
  double p = util::fisher_exact_p(a.anomalies, a.judged() - a.anomalies, b.anomalies, b.judged() - b.anomalies);
  fmt::print("Fisher's exact test, two-sided: p = {:.3g}\n", p);
}

void check_expected_safe(const std::vector<Cell>& cells) {
  std::string list;
  for (const Cell& c : cells) {
    if (!c.expected_safe || c.anomalies == 0) continue;
    list += fmt::format("{}{} under {}", list.empty() ? "" : ", ", c.row, fault_label(c));
  }
  if (!list.empty()) throw UnexpectedAnomaly(fmt::format("anomalies where none were expected: {}", list));
}

void check_judged(const std::vector<Cell>& cells, const std::string& what) {
  long judged = 0, trials = 0;
  for (const Cell& c : cells) judged += c.judged(), trials += c.trials + c.not_run;
  if (judged > 0) return;
  throw Error(
      fmt::format("{} judged no trial: all {} were not run or left unjudged by their client, which shows "
                  "nothing",
                  what, trials));
}

}  // namespace rlock::checker
