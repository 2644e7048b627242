// A chaos campaign: trials run in `jobs` processes side by side (job.h), each trial the Jepsen
// way: its schedule (schedule.h), its clients (client.h), its nemesis (faults/fault.h), its history
// (history.h) and the checkers' verdicts on it (checkers.h). A trial with an anomaly keeps its
// directory (run.log, events.jsonl, history.jsonl, timeline.svg) for `rlock showlog --dir`.
//
// Runs in the calling process, which must have no other threads: jobs and trials fork.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "chaos/chaos.h"

namespace rlock::chaos {

// The K-th of N disjoint parts of a campaign's trial plan (`rlock chaos --shard K/N`, K from 1):
// trial n of the c-th cell that runs trials (planned_cells) is in shard (c * trials + n) mod N + 1,
// so every shard holds about as many trials of each cell as the others. 1/1 is the whole plan.
struct Shard {
  int index = 1;
  int count = 1;

  bool whole() const { return count == 1; }
  bool operator==(const Shard&) const = default;
};
// "K/N".
std::string shard_name(const Shard& shard);
inline constexpr int kMaxShards = 100'000;

// What a campaign runs: every strategy and client under every fault, `trials` times each, in
// `jobs` processes; of those trials, the ones of `shard`.
struct Campaign {
  std::vector<lab::Strategy> strategies;
  std::vector<protocol::ClientSpec> clients;
  std::vector<Fault> faults;
  int trials = 200;
  int jobs = 8;
  Shard shard{};
};

// A campaign's bounds, as `rlock chaos` takes it and a stored run's reader checks it; a run's trials
// are its planned ones (planned_trials: an n/a cell runs none).
inline constexpr int kMaxTrialsACell = 100'000;
inline constexpr long long kMaxTrialsARun = 1'000'000;
inline constexpr int kMaxJobs = 64;
inline constexpr long kMinTtlMs = 20, kMaxTtlMs = 60'000;
inline constexpr int kMinOwnPort = 1024, kMaxOwnPort = 65'000;  // --failover-port, --redlock-port

// The cells that run trials (not n/a), in the plan's order, each as its trial number 0: the
// strategies' rows, then the clients', each under every fault. Whatever the shard.
std::vector<TrialSpec> planned_cells(const Campaign& campaign);
// Whether trial `number` of the `cell`-th planned cell is in the campaign's shard.
bool in_shard(const Campaign& campaign, std::size_t cell, int number);
// The trials of the whole plan (planned cells times trials), whatever the shard.
long long planned_trials(const Campaign& campaign);

// The campaign's trials (its shard's): those run side by side, then the redis-restart ones, run one
// at a time (each crashes the shared Redis). all_trials is both in one list: the order of
// run_campaign's results.
struct TrialPlan {
  std::vector<TrialSpec> side_by_side, one_by_one;
};
TrialPlan plan_trials(const Campaign& campaign);
std::vector<TrialSpec> all_trials(const Campaign& campaign);

// The error of a trial whose job process died before it reported.
inline constexpr const char* kNoResult = "the trial reported no result (its job process died)";
// The error of a trial not run because the campaign was interrupted.
inline constexpr const char* kNotRunInterrupted = "not run: the campaign was interrupted";

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
std::vector<TrialResult> run_campaign(const Campaign& campaign, const ChaosSetup& setup);

// Throws HarnessLost in one line naming the server the campaign lost, its address and the cause,
// with the count of trials checked and not run; nothing when none was lost.
void check_harness(const std::vector<TrialResult>& results);

}  // namespace rlock::chaos
