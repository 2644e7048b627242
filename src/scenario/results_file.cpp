#include "scenario/results_file.h"

#include "results/file_format.h"

namespace rlock::scenario {
namespace {

nlohmann::json tally_json(const VersionTally& t) {
  return {{"version", t.version},
          {"trials", t.trials},
          {"showed", t.showed},
          {"not_run", t.not_run},
          {"interval", {t.interval.first, t.interval.second}},
          {"run", t.run_dir.string()},
          {"first_trial", t.first_trial},
          {"timeline", t.timeline.string()}};
}

}  // namespace

nlohmann::json results_json(std::uint64_t seed, const std::vector<ScenarioResult>& results) {
  nlohmann::json scenarios = nlohmann::json::array();
  for (const ScenarioResult& r : results) {
    nlohmann::json versions = nlohmann::json::array();
    for (const VersionTally& t : r.versions) versions.push_back(tally_json(t));
    scenarios.push_back({{"name", r.name}, {"client", r.client}, {"verdict", r.verdict}, {"versions", versions}});
  }
  return {{"format", kResultsFileFormat}, {"seed", seed}, {"scenarios", scenarios}};
}

void write_results_file(const std::filesystem::path& path, std::uint64_t seed,
                        const std::vector<ScenarioResult>& results) {
  results::write_json_file(path, results_json(seed, results));
}

}  // namespace rlock::scenario
