// A stored run's trials judged again one line at a time (judge.h), as `rlock merge` and `rlock
// analyze` read them: each line of a run's trials.jsonl.gz names a trial of its plan (plan_tally.h),
// is judged, tallied into the table's cells (report.h) and let go. What is held is the cells (their
// counters, each trial's duration for the median, the anomalies' numbers) and two bits a trial of
// the plan, never a trial: a million trials are judged in tens of MB. The table is the one that
// load_run's trials give tabulated, whatever the order of the lines.
//
// Functions on files; one thread.
#pragma once

#include <filesystem>
#include <functional>
#include <string_view>
#include <vector>

#include "chaos/campaign.h"
#include "checker/judge.h"
#include "checker/tally.h"
#include "store/plan_tally.h"

namespace rlock::store {

// Judges each trial line of `run_dir`, a run of `part` (a shard of `plan`'s campaign, or all of
// it), tallies it into `cells` and calls `line`, when given, with the line's text, its trial and
// verdict. Throws Error, in one line, as for_each_trial_line does (run_record.h), and for a line
// that names no trial of `part` or one met before.
void judge_trial_lines(const std::filesystem::path& run_dir, const chaos::Campaign& part, PlanTally& plan,
                       std::vector<checker::Cell>& cells,
                       const std::function<void(std::string_view text, const checker::TrialInput& input,
                                                const checker::TrialResult& result)>& line = {});

// Tallies each trial of the plan's shard that no line named as one that left no result (as
// load_run reads it), and puts each cell's anomalies' numbers in the plan's order.
void close_table(const PlanTally& plan, std::vector<checker::Cell>& cells);

struct JudgedRun {
  chaos::Campaign campaign;
  chaos::ChaosSetup setup;  // the seed, TTL, wait mode; run_dir the run's directory; no server addresses
  std::vector<checker::Cell> cells;
};

// Reads a run directory and judges its trials: `rlock analyze`. Throws as load_run does
// (run_record.h), and Error for a trial named twice.
JudgedRun judge_stored_run(const std::filesystem::path& run_dir);

}  // namespace rlock::store
