// One chaos trial, in its job's process: its servers set up (a failover pair, a Redis to stall,
// the job's Redlock servers), its workers run (forked built-in workers, or protocol clients) under
// its fault, and what judge() needs gathered from its run; the trial's directory kept when it is
// anomalous or a client failed, removed otherwise.
//
// Runs in a job process with no other threads (its workers fork).
#pragma once

#include "chaos/chaos.h"
#include "chaos/job.h"
#include "checker/judge.h"

namespace rlock::runner {

// Runs the trial on `account`: what judge() needed, and its verdict. Throws HarnessLost when a
// server the harness needs stopped answering, TrialStopped when the campaign stops, Error when it
// cannot run.
checker::JudgedTrial run_trial(const chaos::TrialSpec& spec, long account, chaos::Job& job);

}  // namespace rlock::runner
