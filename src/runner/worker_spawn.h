// A worker of a chaos trial: a forked process (strategy/worker.h) running the trial's strategy on
// one worker's schedule. The campaign's process forks it and reaps it (worker_trial.h); the worker's
// exit code says how it ended, as rlock's: 0, 1 failed, 3 write rejected.
//
// plan_for is a pure function. spawn_worker forks (and may exec): call it from a process with no other threads.
#pragma once

#include <sys/types.h>

#include <functional>
#include <vector>

#include "chaos/chaos.h"
#include "chaos/schedule.h"
#include "rlock/redis_address.h"
#include "strategy/worker.h"

namespace rlock::runner {

// The worker `w` of a trial of `strategy` on `account`; `redlock` are the servers of a redlock trial.
lab::WorkerPlan plan_for(lab::Strategy strategy, const lab::WorkerPlan& w, long account, const chaos::ChaosSetup& setup,
                         const std::vector<RedisAddress>& redlock);

// A worker process. Exit codes as rlock's: 0, 1 failed, 3 write rejected. With a
// clock_rate other than 1 it is a fresh `rlock worker` under faketime (libfaketime is preloaded at
// exec, so a fork cannot be skewed), its wall clock and its sleeps running clock_rate times as
// fast as the host's (its monotonic clock is the host's), its output in worker-NAME.log of the
// trial; 127 when faketime cannot run. It is exec'd at once and starts at its delay by the host's
// clock: the trial's start must leave time for an exec (kExecLead). `first` runs in a forked worker before anything
// else (under --netns: it enters its namespace). How long a trial with a skewed worker starts after its workers are
// spawned: an exec'd rlock starts in about 15 ms, 250 ms when built with the sanitizers.
inline constexpr double kExecLead = 0.5;

pid_t spawn_worker(const lab::WorkerPlan& plan, const lab::RunSetup& setup, double clock_rate = 1,
                   const std::function<void()>& first = {});

}  // namespace rlock::runner
