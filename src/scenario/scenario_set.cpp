#include "scenario/scenario_set.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "rlock/error.h"
#include "util/printable.h"
#include "util/shipped_data.h"

namespace rlock::scenario {
namespace {

namespace fs = std::filesystem;

// The scenario in `file`; throws Error saying why it cannot be taken.
Scenario scenario_in(const fs::path& file) {
  if (std::string why = util::untrusted(file); !why.empty()) throw Error("it " + why);
  std::error_code unknown;
  if (fs::file_size(file, unknown) > kMaxScenarioFileBytes)
    throw Error(fmt::format("over {} bytes", kMaxScenarioFileBytes));
  std::ifstream in(file, std::ios::binary);
  std::string text(std::istreambuf_iterator<char>(in), {});
  if (!in && !in.eof()) throw Error("it cannot be read");
  Scenario s = read_scenario(text);
  if (s.name + ".json" != file.filename().string())
    throw Error(fmt::format("name is \"{}\", not the file's name", s.name));
  return s;
}

}  // namespace

fs::path scenarios_dir() { return util::shipped_data_dir("RLOCK_SCENARIOS_DIR", "scenarios"); }

ScenarioSet read_scenario_set(const fs::path& dir) {
  ScenarioSet set{dir, {}, {}};
  std::error_code missing;
  if (!fs::is_directory(dir, missing)) return set;
  if (std::string why = util::untrusted(dir); !why.empty()) {
    throw UsageError(
        fmt::format("the scenarios folder {} {}: a scenario names the client whose command rlock runs; {}, or set "
                    "RLOCK_SCENARIOS_DIR to a folder of your own",
                    dir.string(), why, util::trust_fix(dir)));
  }
  int files = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, missing)) {
    const fs::path& file = entry.path();
    std::error_code absent;
    if (file.extension() != ".json" || !fs::is_regular_file(fs::symlink_status(file, absent))) continue;
    if (++files > kMaxScenarioFiles)
      throw UsageError(fmt::format("the scenarios folder {} holds over {} files", dir.string(), kMaxScenarioFiles));
    try {
      set.scenarios.push_back(scenario_in(file));
    } catch (const std::exception& e) {
      set.skipped.push_back(util::printable(fmt::format("{}: {}; skipped", file.string(), e.what())));
    }
  }
  std::sort(set.scenarios.begin(), set.scenarios.end(),
            [](const Scenario& a, const Scenario& b) { return a.name < b.name; });
  std::sort(set.skipped.begin(), set.skipped.end());
  return set;
}

ScenarioSet shipped_scenarios() {
  ScenarioSet set = read_scenario_set(scenarios_dir());
  for (const std::string& line : set.skipped) fmt::print(stderr, "rlock: warning: {}\n", line);
  return set;
}

const Scenario& scenario_named(const ScenarioSet& set, const std::string& name) {
  auto named =
      std::find_if(set.scenarios.begin(), set.scenarios.end(), [&](const Scenario& s) { return s.name == name; });
  if (named != set.scenarios.end()) return *named;
  std::string names;
  for (const Scenario& s : set.scenarios) names += (names.empty() ? "" : ", ") + s.name;
  throw UsageError(fmt::format("unknown scenario '{}' (known: {})", util::printable(name),
                               names.empty() ? "none in " + set.dir.string() : names));
}

std::vector<Scenario> scenarios_for_client(const ScenarioSet& set, const std::string& client) {
  std::string name = client.substr(0, client.find('@'));
  std::vector<Scenario> found;
  std::copy_if(set.scenarios.begin(), set.scenarios.end(), std::back_inserter(found),
               [&](const Scenario& s) { return s.client == name; });
  return found;
}

}  // namespace rlock::scenario
