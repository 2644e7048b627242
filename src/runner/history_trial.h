// One chaos trial as a history (chaos/workload.h) of a protocol client: each worker is one client
// process, started and initialized once, that runs its increments back to back (K of them, or for
// D seconds), keeping its connections, session and lock object from one to the next, as a service
// does. The harness serves the account as in a one-increment trial (client_trial.h): it holds each
// read's answer for the worker's work time and logs every read and write in the run log.
//
// The nemesis is the history's schedule: each of its operations is one of the chaos faults, armed
// at its time (at, every, once at 1 TTL) or at a named step of a named worker's N-th increment,
// and struck where that fault strikes a one-increment trial's target (a pause just before a read's
// answer goes, a kill just after, a lost reply at the release step), with what the fault draws
// drawn anew for each strike from the history's seed. One operation is in force at a time: one
// that comes due while another is, waits for its heal. A killed worker is started again, and goes
// on with its next increment once it answered init.
//
// Each increment is one operation of the history, its invocation and completion stamped in the
// run log's seconds; each strike is recorded with its heal. Runs on the calling thread.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "chaos/trial_context.h"
#include "chaos/workload.h"
#include "checker/history.h"
#include "checker/judge.h"
#include "protocol/served_account.h"
#include "runner/client_trial.h"

namespace rlock::runner {

struct HistoryOutcome {
  std::vector<checker::Operation> operations;  // every increment sent, in the order sent
  std::vector<bool> stuck;                     // each operation's: the history's time ran out on it
  std::vector<checker::Strike> strikes;        // the nemesis operations struck, in order
  protocol::ServedAccount account;
  std::vector<double> stale_write_times;    // when each stale write was applied (run log s)
  std::optional<std::string> client_error;  // the client broke the protocol: not an anomaly

  // What the judge reads of the served account.
  checker::ServedTally tally() const;
};

// Runs the history of `workload` under `nemesis`; its stderr, errors and `stopped` as
// run_client_trial's. `draws` is the schedule `trial.schedule` refers to, drawn for the trial: its
// workers' names, amounts and work; each strike's own draws are written into it before it strikes,
// as the faults read them there.
HistoryOutcome run_history_trial(chaos::TrialContext& trial, chaos::Schedule& draws, const ClientTrialSetup& setup,
                                 const chaos::Workload& workload, const chaos::NemesisSchedule& nemesis,
                                 const std::function<void()>& start_clock, const std::function<bool()>& stopped);

}  // namespace rlock::runner
