// A trial judged: what a trial leaves behind (TrialInput: its history, the account's final state,
// how long it took, whether it could run) and the one function that turns that into its
// TrialResult. The campaign calls it as each trial ends, and `rlock analyze` calls it again on the
// inputs stored with the run (run_record.h), so both print the same table. Every field of
// TrialResult is computed here, from fields of TrialInput that the run record stores.
//
// Plain values and a pure function; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "chaos/chaos.h"
#include "checker/checkers.h"
#include "checker/history.h"

namespace rlock::checker {

// A trial judged: each checker's verdict, its operations counted, and whether it could run.
struct TrialResult {
  chaos::TrialSpec spec{};
  CheckResult lost{};
  CheckResult overlaps{};
  CheckResult fences{};
  int ok_ops = 0;      // increments that succeeded (their amount added)
  int failed_ops = 0;  // increments that failed and said so (their amount not added)
  long long failed_amount = 0;
  int unknown_ops = 0;  // increments of unknown outcome (killed, or a write's answer lost), not stuck
  int stuck_ops = 0;    // increments still running when the trial's time ran out
  // A protocol client's: its served balance against the increments whose writes were applied
  // (invalid: money created, its amount; unknown for a strategy), and the increments it reported
  // done with no write applied and no error, never a success.
  CheckResult balance{};
  int unwritten_ops = 0;
  bool struck = false;  // the fault struck (FaultModel::struck)
  // failover of a single Redis: whether the lock had reached the replica when the primary died.
  std::optional<bool> lock_reached_replica{};
  double ms = 0;
  std::string error{};  // the trial itself could not run (then not_run too)
  // The protocol client broke the protocol, exited early or fell silent. What the harness served
  // before is judged all the same (`judged`); a trial with no write served judges nothing.
  // `not_run`: skipped, the client having failed its first trials this way.
  std::string client_error{};
  bool not_run = false;
  // Run, and something the harness saw can be judged: the checkers' verdicts above hold.
  // classification.h says what the trial showed.
  bool judged = false;
  // A history's figures (workload.h): its increments, those a stale write lost, the nemesis
  // operations struck, and those followed by a loss before the next one struck (or the end); the
  // increments sent after the last heal, and of them those that succeeded. All 0 for a
  // one-increment trial (history false).
  bool history = false;
  int increments = 0, lost_increments = 0, faults_struck = 0, faults_followed_by_loss = 0;
  int started_after_heal = 0, ok_after_heal = 0;
  // Not run because the campaign stopped: the harness lost a server (`error` names it).
  bool harness_lost = false;
};

// A protocol client's account, served by the harness: its exact count of stale writes, and its
// balance against what the increments whose writes were applied add up to. A run stored before
// the balance was kept has no balance: its trials are not checked for it.
struct ServedTally {
  int stale_writes = 0;
  long long lost_money = 0;
  std::optional<long long> balance{};           // the account at the end
  std::optional<long long> expected_balance{};  // initial + each increment with an applied write, once
  int repeated_writes = 0;                      // applied writes beyond the first of their increment
  int unwritten = 0;                            // increments reported done with no write applied, no error
  int lost_increments = 0;                      // increments whose applied write a stale write overwrote
  std::vector<double> stale_write_times{};      // when each stale write was applied (a history's; run log s)
};

struct TrialInput {
  explicit TrialInput(chaos::TrialSpec trial) : spec(std::move(trial)) {}

  chaos::TrialSpec spec;
  std::vector<Operation> history;
  std::vector<bool> stuck;                   // per operation: still running when the trial's time ran out
  bool struck = false;                       // the fault struck (FaultModel::struck)
  std::optional<bool> lock_reached_replica;  // failover of a single Redis, measured at the failover
  std::optional<long long> final_balance;    // a built-in strategy's account at the end
  std::string balance_error;                 // why final_balance could not be read
  std::optional<ServedTally> served;         // a protocol client's account
  std::vector<Strike> strikes;               // a history's nemesis operations, in the order struck
  double ms = 0;
  std::string error;         // the trial itself could not run
  std::string client_error;  // the client broke the protocol: judged up to there (TrialResult::judged)
  bool not_run = false;      // skipped: the client failed its first trials
};

TrialResult judge(const TrialInput& input);

// A trial's input and its verdict, judged once.
struct JudgedTrial {
  TrialInput input;
  TrialResult result;
};

}  // namespace rlock::checker
