// The file `rlock scenario --json FILE` writes: the seed, and each scenario run with its client,
// its verdict line and each version's tally (scenario_run.h). Its format number is defined here
// once, beside its codec; the schema is docs/schemas/scenario-run.schema.json.
//
// Plain values and functions on files; thread-safe.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenario/scenario_run.h"

namespace rlock::scenario {

// 1: the seed and the scenarios.
inline constexpr int kResultsFileFormat = 1;

// One scenario as `rlock scenario` ran it.
struct ScenarioResult {
  std::string name;
  std::string client;
  std::string verdict;  // verdict_line of the tallies
  std::vector<VersionTally> versions;
};

nlohmann::json results_json(std::uint64_t seed, const std::vector<ScenarioResult>& results);
// results_json written whole to `path` (results/file_format.h); throws Error when it cannot be.
void write_results_file(const std::filesystem::path& path, std::uint64_t seed,
                        const std::vector<ScenarioResult>& results);

}  // namespace rlock::scenario
