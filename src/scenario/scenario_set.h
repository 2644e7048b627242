// Where the scenarios are and which there are: every `NAME.json` of the scenarios folder read
// (scenario_file.h), found as the client catalogue is (protocol/client_catalogue.h): $RLOCK_SCENARIOS_DIR,
// else for an installed binary its prefix's share/rlock/scenarios, else the checkout's scenarios/.
// A folder another user owns or others can write is refused (a scenario names the client whose
// command rlock runs); a file that cannot be read, or whose name is not its scenario's, is skipped
// and named. Functions on files; thread-safe.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "scenario/scenario_file.h"

namespace rlock::scenario {

inline constexpr int kMaxScenarioFiles = 1000;

struct ScenarioSet {
  std::filesystem::path dir;
  std::vector<Scenario> scenarios;   // sorted by name
  std::vector<std::string> skipped;  // one line a file not read: its path and why, printable
};

std::filesystem::path scenarios_dir();

// Every scenario under `dir`; none when it does not exist. Throws UsageError, in one line, for a
// folder another user (not root) owns or its group or others can write, or one of over
// kMaxScenarioFiles files.
ScenarioSet read_scenario_set(const std::filesystem::path& dir);

// read_scenario_set(scenarios_dir()), each file skipped named in one line on stderr.
ScenarioSet shipped_scenarios();

// The scenario named `name`. Throws UsageError, in one line listing the known ones, when none is.
const Scenario& scenario_named(const ScenarioSet& set, const std::string& name);

// The scenarios whose client is `client` (a catalogue name; `NAME@V` is taken as NAME), by name.
std::vector<Scenario> scenarios_for_client(const ScenarioSet& set, const std::string& client);

}  // namespace rlock::scenario
