// One chaos trial of a protocol client (docs/clients.md): the client takes and releases its lock
// with its own library, and the harness serves the account, so it sees every read and write.
//
// Each worker of the schedule is one client process, started and initialized before the trial's
// clock starts (`start_clock` starts it, with a fresh run, and returns the run's log), then sent its
// increment at its start time. Each read's answer is held back for the
// worker's work time (under `slow`, 1.5 to 3 TTLs for the target), as a built-in worker works
// between its read and its write. The nemesis strikes once the target's read has been answered:
// `pause` stops the target's whole process group, `kill` kills it; the faults of Redis's host and
// of the network (nemesis.h) strike as soon as the target has read, while its answer is held (the
// built-in holder too is mid-work when Redis restarts or fails over), and heal when due. Under
// delayed-write the harness, which is the client's database, holds the target's first write for
// the schedule's pause before it applies it. Every step is recorded in the trial's run log as the built-in workers record
// theirs, so the history, the checkers and the timeline read both alike. Runs on the calling thread.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "chaos/history.h"
#include "chaos/judge.h"
#include "chaos/nemesis.h"
#include "chaos/schedule.h"
#include "protocol/served_account.h"
#include "lab/lab_dir.h"
#include "lab/run_log.h"

namespace rlock {

struct ClientTrialSetup {
  const ClientSpec& client;
  std::vector<std::vector<std::string>> redis;  // the URLs each worker's client is given: one, or three
  std::string key;                 // the lock key of the trial's account
  std::chrono::milliseconds ttl;
  long long initial_balance;
};

struct ClientTrialOutcome {
  std::vector<WorkerExit> exits;  // ended: done (code 0), done with an error (1), killed or stuck
  ServedAccount account;
  std::optional<std::string> client_error;  // the client broke the protocol: not an anomaly

  // What the judge reads of the served account.
  ServedTally tally() const;
};

// The clients' stderr goes to client-WORKER.stderr in `dir`. Throws Error when a client cannot be
// started at all; anything the client does wrong is the outcome's client_error.
ClientTrialOutcome run_client_trial(const TrialSpec& spec, const Schedule& schedule, const ClientTrialSetup& setup,
                                    const LabDir& dir, const std::function<const RunLog&()>& start_clock,
                                    const std::function<Nemesis(const RunLog&)>& nemesis_of);

}  // namespace rlock
