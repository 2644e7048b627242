// One chaos trial of a built-in strategy: its workers forked (worker_spawn.h), each on the trial's
// servers or its proxies, the target under faketime when its fault skews its clock, and driven by
// the trial loop (trial_loop.h), which sees a worker's end by reaping it and the target's read by
// its marker file.
//
// Forks: call it from a process with no other threads.
#pragma once

#include <functional>
#include <vector>

#include "chaos/trial_context.h"
#include "checker/history.h"

namespace rlock::runner {

// Runs the trial's workers, its run's clock started anew (trial.log set): how each one ended. When
// `stopped` says so (the campaign stops), ends those still running at once.
std::vector<checker::WorkerExit> run_workers(chaos::TrialContext& trial, const std::function<bool()>& stopped);

}  // namespace rlock::runner
