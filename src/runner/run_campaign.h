// A chaos campaign run: trials in `jobs` processes side by side (job.h), each trial the Jepsen
// way: its schedule (schedule.h), its workers (worker_spawn.h) or protocol client (client_trial.h), its nemesis
// (chaos/faults/fault.h), its history (history.h) and the checkers' verdicts on it (checkers.h). A trial with an
// anomaly keeps its directory (run.log, events.jsonl, history.jsonl, timeline.svg) for `rlock showlog --dir`.
//
// Runs in the calling process, which must have no other threads: jobs and trials fork.
#pragma once

#include <vector>

#include "chaos/campaign.h"
#include "checker/judge.h"

namespace rlock::runner {

// Runs `campaign` on `setup`'s servers: checks that they answer (and that Redis can be restarted
// when a fault restarts it) and that the job's own servers start, prints the campaign's first line
// on stdout and its progress on stderr (util/progress.h), runs the trials side by side and then
// the redis-restart ones one at a time (they would crash each other's Redis). Clears
// setup.dir/trials first. When setup.run_dir is set, stores the run there with its kept trials
// (run_record.h). Returns every trial's result, in the order of all_trials. A server the harness needed stopped
// answering: the campaign stops within seconds, keeps the trials already checked and returns the others not run
// (harness_lost).
//
// Holds the chaos directory's lock while it runs (campaign_lock.h: a second campaign there is a
// UsageError). SIGINT or SIGTERM (interruption.h) stops it cleanly: its jobs end their trials and
// stop the servers they started, the shared Redis runs again if a restart trial was mid-crash, the
// run is sealed as interrupted (run_record.h), and it throws Interrupted, in one line.
std::vector<checker::TrialResult> run_campaign(const chaos::Campaign& campaign, const chaos::ChaosSetup& setup);

// Throws HarnessLost in one line naming the server the campaign lost, its address and the cause,
// with the count of trials checked and not run; nothing when none was lost.
void check_harness(const std::vector<checker::TrialResult>& results);

}  // namespace rlock::runner
