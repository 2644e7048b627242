// rlock scenarios: every scenario of the scenarios folder (scenario/scenario_set.h), one line each:
// its name, the catalogue client it judges, the versions of its library, its fault, how faithfully
// it replays its report, and its last verdict, read from the newest kept run of each version under
// the data directory's chaos/runs ("not run" when none). Prints to stdout, each file skipped named
// on stderr; exit 0, or 2 when no scenario is found (saying where it looked) or the folder is not
// the user's.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.h"
#include "rlock/error.h"
#include "scenario/scenario_run.h"
#include "scenario/scenario_set.h"

namespace rlock::cli {
namespace {

std::string comma_joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

void list_scenarios(const GlobalOptions& global) {
  scenario::ScenarioSet set = scenario::shipped_scenarios();
  if (set.scenarios.empty()) {
    throw UsageError(fmt::format(
        "no scenario in {}: set RLOCK_SCENARIOS_DIR to a folder of NAME.json files (a checkout's scenarios/)",
        set.dir.string()));
  }
  std::filesystem::path chaos_dir = std::filesystem::path(global.data_dir()) / "chaos";
  std::size_t name_w = 4, client_w = 6, versions_w = 8, fault_w = 5;
  for (const scenario::Scenario& s : set.scenarios) {
    name_w = std::max(name_w, s.name.size());
    client_w = std::max(client_w, s.client.size());
    versions_w = std::max(versions_w, comma_joined(s.versions).size());
    fault_w = std::max(fault_w, scenario::strikes_text(s).size());
  }
  fmt::print("scenarios ({}): run one with `rlock scenario NAME`\n", set.dir.string());
  constexpr std::size_t fidelity_w = 12;  // "not replayed"
  fmt::print("{:<{}} {:<{}} {:<{}} {:<{}} {:<{}} {}\n", "name", name_w, "client", client_w, "versions", versions_w,
             "fault", fault_w, "fidelity", fidelity_w, "last verdict");
  for (const scenario::Scenario& s : set.scenarios) {
    std::vector<scenario::VersionTally> last = scenario::last_tallies(s, chaos_dir);
    fmt::print("{:<{}} {:<{}} {:<{}} {:<{}} {:<{}} {}\n", s.name, name_w, s.client, client_w, comma_joined(s.versions),
               versions_w, scenario::strikes_text(s), fault_w, to_string(s.fidelity), fidelity_w,
               last.empty() ? "not run" : scenario::verdict_line(last));
  }
}

}  // namespace

void register_scenarios(CLI::App& app, const GlobalOptions& global) {
  CLI::App* cmd =
      app.add_subcommand("scenarios", "the reported failures rlock replays (scenarios/), and their last verdicts");
  cmd->callback([&global] { list_scenarios(global); });
}

}  // namespace rlock::cli
