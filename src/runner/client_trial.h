// One chaos trial of a protocol client (docs/clients.md): the client takes and releases its lock
// with its own library, and the harness serves the account, so it sees every read and write.
//
// Each worker of the schedule is one client process, started and initialized before the trial's
// clock starts (`start_clock` starts it, with a fresh run: trial.log), then sent its increment at
// its start time. Each read's answer is held back for the worker's work time (under `slow`, 1.5 to
// 3 TTLs for the target), as a built-in worker works between its read and its write. The trial loop
// (trial_loop.h) strikes when the fault says (FaultModel::client_strike): a pause of the target's
// whole process group just before its read's answer is sent, a kill just after, and the faults of
// Redis's host and of the network as soon as the target has read, while its answer is held (the
// built-in holder too is mid-work when Redis restarts or fails over). When the fault holds a write
// (delayed-write), the harness, which is the client's database, holds the target's first write for
// that long before it applies it. Every step is recorded in the trial's run log as the built-in
// workers record theirs, so the history, the checkers and the timeline read both alike. Runs on the
// calling thread.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "chaos/trial_context.h"
#include "checker/history.h"
#include "checker/judge.h"
#include "lab/log_dir.h"
#include "lab/run_log.h"
#include "protocol/served_account.h"

namespace rlock::runner {

struct ClientTrialSetup {
  const protocol::ClientSpec& client;
  std::vector<std::vector<std::string>> redis;        // the URLs each worker's client is given: one, or three
  std::optional<std::string> replica;                 // under failover: the replica's URL, given to every client
  std::vector<std::vector<std::string>> environment;  // NAME=VALUE overrides of each worker's, or none
  std::string key;                                    // the lock key of the trial's account
  std::chrono::milliseconds ttl;
  long long initial_balance;
};

struct ClientTrialOutcome {
  std::vector<checker::WorkerExit> exits;  // ended: done (code 0), done with an error (1), killed or stuck
  protocol::ServedAccount account;
  std::optional<std::string> client_error;  // the client broke the protocol: not an anomaly

  // What the judge reads of the served account.
  checker::ServedTally tally() const;
};

// The clients' stderr goes to client-WORKER.stderr in the trial's directory. Throws Error when a
// client cannot be started at all; anything the client does wrong is the outcome's client_error.
// When `stopped` says so (the campaign stops), ends the trial at once.
ClientTrialOutcome run_client_trial(chaos::TrialContext& trial, const ClientTrialSetup& setup,
                                    const std::function<void()>& start_clock, const std::function<bool()>& stopped);

}  // namespace rlock::runner
