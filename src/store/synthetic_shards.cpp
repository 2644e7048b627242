// synthetic_shards DIR TRIALS SHARDS: the N shards of a campaign of every strategy under every
// fault, TRIALS trials a cell, seed 2026, each trial made up (synthetic_run.h) and written with the
// real writer under DIR/runs/; prints their directories, one a line. For measuring `rlock merge`
// on many trials (docs/scale.md) without running them. A tool of the tests' build, not installed.
#include <cstdio>
#include <cstdlib>
#include <exception>

#include <fmt/format.h>

#include "lab/strategy.h"
#include "store/synthetic_run.h"

int main(int argc, char** argv) {
  using namespace rlock;
  if (argc != 4) {
    fmt::print(stderr, "usage: synthetic_shards DIR TRIALS SHARDS\n");
    return 2;
  }
  try {
    chaos::Campaign campaign{rlock::lab::all_strategies(), {}, chaos::all_faults(), std::atoi(argv[2]), 8};
    int shards = std::atoi(argv[3]);
    if (campaign.trials < 1 || campaign.trials > chaos::kMaxTrialsACell || shards < 1 || shards > chaos::kMaxShards) {
      fmt::print(stderr, "synthetic_shards: TRIALS from 1 to {}, SHARDS from 1 to {}\n", chaos::kMaxTrialsACell,
                 chaos::kMaxShards);
      return 2;
    }
    chaos::ChaosSetup setup;
    setup.dir = argv[1];
    setup.seed = 2026;
    for (const auto& dir : store::write_synthetic_shards(campaign, setup, shards)) fmt::print("{}\n", dir.string());
    fmt::print(stderr, "synthetic_shards: {} trials in {} shards\n", chaos::planned_trials(campaign), shards);
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "synthetic_shards: {}\n", e.what());
    return 1;
  }
}
