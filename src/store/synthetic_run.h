// Trials made up for the merge's tests and measurements (merge_test, synthetic_shards): each trial
// of a campaign's plan given a history and a final balance drawn from its spec alone, and the runs
// of the campaign's N shards written with the real writer (run_record.h). A stand-in of a real
// trial's shape and size, not any trial's truth: its schedule's workers, one increment each, the
// first two of every third trial overlapping and losing the second's money.
//
// Functions on files; tests and tools only.
#pragma once

#include <filesystem>
#include <vector>

#include "chaos/campaign.h"
#include "checker/judge.h"

namespace rlock::store {

checker::TrialInput synthetic_trial(const chaos::TrialSpec& spec, const chaos::ChaosSetup& setup);

// Writes the run of each shard 1..`shards` of `campaign` (its shard ignored) under
// setup.dir/runs/, sealed complete, each trial synthetic; returns their directories in order.
std::vector<std::filesystem::path> write_synthetic_shards(const chaos::Campaign& campaign,
                                                          const chaos::ChaosSetup& setup, int shards);

}  // namespace rlock::store
