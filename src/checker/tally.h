// A campaign's tally: its trials counted per cell (a strategy or a client under a fault), the table printed
// on stdout, the same as JSON, and the judgement: a campaign fails when a cell that is expected to
// be safe (expected_safe) showed an anomaly.
//
// Plain values and functions; thread-safe except that printing shares stdout.
#pragma once

#include <string>
#include <vector>

#include "chaos/campaign.h"
#include "chaos/chaos.h"
#include "checker/judge.h"
#include "rlock/error.h"

namespace rlock::checker {

struct Cell {
  std::string row;  // the strategy's or the client's name
  chaos::Fault fault{};
  bool expected_safe = false;
  bool client = false;
  std::string_view not_applicable{};  // why the cell cannot fail (chaos.h), not run; empty when it can
  // Failover of one Redis splits in two cells: "lagging" (the lock had not reached the replica when
  // the primary died) and "in-sync" (it had, or no failover struck); empty for other cells.
  std::string_view replica{};
  long trials = 0, lost = 0, overlaps = 0, failed = 0, anomalies = 0;
  long unknown = 0;        // increments of unknown outcome: killed, or a write whose answer was lost
  long stuck = 0;          // increments still running when their trial's time ran out
  long struck = 0;         // trials in which the fault struck
  long client_errors = 0;  // trials run that ended in the client's error, judged or not
  long unjudged = 0;       // trials run in which nothing could be judged (a client's error before any write)
  long unwritten = 0;      // a client's increments reported done with no write applied and no error
  long created = 0;        // a client's trials whose balance holds money no increment added
  long long created_amount = 0;
  long not_run =
      0;  // trials not run: the client failed its first ones, a trial could not run, or the harness lost a server
  long long lost_amount = 0, failed_amount = 0;
  std::vector<double> ms{};
  std::vector<std::string> kept{};  // trial numbers of the anomalies
  // Histories' (TrialResult's history figures, summed): 0 in a cell of one-increment trials.
  long increments = 0, lost_increments = 0, faults_struck = 0, faults_followed_by_loss = 0;

  long judged() const { return trials - unjudged; }
  double rate() const;  // of judged trials with an anomaly
};

// The cell's fault as the table prints it: failover/lag and failover/sync for a split failover.
std::string fault_label(const Cell& c);

// One cell per strategy and fault of `campaign` (two for a failover of one Redis), in its order,
// with `results` tallied in.
std::vector<Cell> tabulate(const chaos::Campaign& campaign, const std::vector<TrialResult>& results);
// The same cells with no trial in them, and one trial's result tallied into its cell, for a
// reader that meets the trials one at a time (merge.h). A cell keeps its anomalies' numbers in the
// order they were tallied.
std::vector<Cell> empty_table(const chaos::Campaign& campaign);
void tally(std::vector<Cell>& cells, const TrialResult& result);
// The table on stdout, and where the anomalous trials are kept.
void print_table(const std::vector<Cell>& cells, const chaos::ChaosSetup& setup);
// The table as chaos.json in `path` (results/chaos_file.h), with the seed, the TTL, the trials a
// cell and the wait mode. Throws Error when the file cannot be written.
void write_json(const std::string& path, const std::vector<Cell>& cells, const chaos::Campaign& campaign,
                const chaos::ChaosSetup& setup);
// The cell of `row` under `fault`; nullptr when the campaign has none.
const Cell* find_cell(const std::vector<Cell>& cells, const std::string& row, chaos::Fault fault);
// Two cells side by side: each one's anomalies of its judged trials with the Wilson interval, and
// Fisher's exact two-sided p-value that their rates are the same.
void print_comparison(const Cell& a, const Cell& b);

// A cell that is expected to be safe showed an anomaly: the campaign's verdict, not a failure to run it.
class UnexpectedAnomaly : public Error {
 public:
  using Error::Error;
};

// Throws UnexpectedAnomaly naming every cell that is expected to be safe and showed an anomaly.
void check_expected_safe(const std::vector<Cell>& cells);
// Throws Error, in one line naming `what` (a run), when not one trial of `cells` was judged: every
// one not run or left unjudged by its client. Such a run shows nothing, which is no pass.
void check_judged(const std::vector<Cell>& cells, const std::string& what);

}  // namespace rlock::checker
