// The campaign's jobs: processes forked side by side, each running every jobs-th trial one after
// the other and reporting each result in a file of its own, which the campaign collects while it
// watches the shared servers (chaos/needed_servers.h); it stops the jobs when one of those is lost or the
// campaign is interrupted (interruption.h): each ends its trial, whose servers stop with it, and
// those not done within a grace of 2 s are killed, with what they started (host/child.h).
//
// Runs in the calling process, which must have no other threads: jobs and trials fork.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "chaos/chaos.h"
#include "checker/judge.h"

namespace rlock::runner {

// The jobs share a record of each client's trials (one line each, in the order they ended), so
// that the campaign gives up on a client whose first kGiveUpAfter trials all ended in a client error.
constexpr std::size_t kGiveUpAfter = 5;

// Runs every spec in `jobs` processes; `progress(done, anomalies)` is called now and then. A
// redis-restart trial crashes the shared Redis: run those with one job, and on a Redis that rlock
// or its scripts started (check_strikable). Anomalous trials are kept in
// setup.dir/trials, which the caller clears before a campaign.
std::vector<checker::TrialResult> run_trials(const std::vector<chaos::TrialSpec>& specs, const chaos::ChaosSetup& setup,
                                             int jobs, const std::function<void(std::size_t, std::size_t)>& progress);

}  // namespace rlock::runner
