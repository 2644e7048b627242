// The shards of one campaign (`rlock chaos --shard K/N`, campaign.h) merged into one run, as if
// the campaign had run whole: `rlock merge`. The shards are checked first, from their run.json
// alone: one plan's fingerprint (run_file.h) and one count N, each index from 1 to N once, each
// sealed complete. Then every trial line of every shard is judged again (judge.h), tallied into
// the table and copied into the merged run's trials, one line at a time: the merge holds the
// table's cells (their counters, each trial's duration for the median, the anomalies' numbers) and
// two bits a trial of the plan, never a shard's trials. A shard's kept trials are copied, byte for
// byte, when its own lines keep them (an anomaly, a client's error or an error) and they hold
// regular files and directories alone; anything else in its trials/ is refused. The merged run is
// written in a directory of its own beside its place and renamed there once sealed, so a merge
// that fails leaves no run. The merged run (run_record.h) is a whole campaign's: `rlock analyze`
// and `rlock report` read it as any other.
//
// A function on files; runs in one thread.
#pragma once

#include <filesystem>
#include <vector>

#include "chaos/campaign.h"
#include "checker/tally.h"

namespace rlock::store {

struct MergedRun {
  chaos::Campaign campaign;  // the whole campaign (shard 1/1), with the first shard's jobs
  chaos::ChaosSetup setup;   // the first shard's, its dir and run_dir the merged run's directory
  std::vector<checker::Cell> cells;
  std::string fingerprint;
  int shards = 0;
};

// Merges the runs in `shard_dirs` into a new run under chaos_dir/runs/ (sealed complete, its
// chaos.json not yet written). Throws UsageError, in one line and before anything is written, for
// shards of different fingerprints or counts (naming the first field that differs), a shard given
// twice, and a shard missing (named K/N); Error for a directory that is not a sealed run (as
// load_run: trials that are not its seal's, a run.json that is a FIFO or a link), a shard of an
// interrupted campaign, a trial line that is damaged, names no trial of its shard or names one
// twice, a trials/ holding anything but the directories of the trials the shard kept (a symbolic
// link, a FIFO, a device, another shard's trial), and shards whose trials were none judged.
MergedRun merge_shards(const std::vector<std::filesystem::path>& shard_dirs, const std::filesystem::path& chaos_dir);

}  // namespace rlock::store
