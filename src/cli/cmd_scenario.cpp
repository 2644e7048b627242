// rlock scenario NAME... [--client NAME] [--trials N] [--versions V,W] [--seed S] [--json FILE]
// [--jobs J] [--failover-port P] [--redlock-port P]: each scenario (scenario/scenario_run.h), or
// every scenario of --client's library, run at each of its versions as a chaos campaign kept under
// chaos/runs/ with its report.html (and the first trial that showed the loss drawn beside it); a
// line a version (trials, those that showed the loss, the 95% Wilson interval, the run) and the
// scenario's verdict line on stdout, progress on stderr. Every argument and every version's adapter
// is checked before a server is asked. Exits 0 when it ran, whatever the verdict; 2 for bad input;
// 5 when the harness lost a server.
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/campaign_options.h"
#include "cli/commands.h"
#include "cli/named_servers.h"
#include "cli/run_report.h"
#include "protocol/client_catalogue.h"
#include "rlock/error.h"
#include "scenario/results_file.h"
#include "scenario/scenario_run.h"
#include "scenario/scenario_set.h"
#include "util/option_checks.h"

namespace rlock::cli {
namespace {

struct ScenarioOptions {
  std::vector<std::string> names;
  std::string client;
  int trials = 0;  // the scenario's
  std::vector<std::string> versions;
  std::string json;
  CampaignOptions campaign;
};

// The scenarios the arguments name: NAME... and those of --client.
std::vector<scenario::Scenario> scenarios_asked(const ScenarioOptions& options, const scenario::ScenarioSet& set) {
  if (options.names.empty() && options.client.empty())
    throw UsageError("name a scenario, or give --client NAME for all of its (rlock scenarios lists them)");
  std::vector<scenario::Scenario> asked;
  for (const std::string& name : options.names) asked.push_back(scenario::scenario_named(set, name));
  if (!options.client.empty()) {
    std::vector<scenario::Scenario> of_client = scenario::scenarios_for_client(set, options.client);
    if (of_client.empty()) {
      std::string clients;
      for (const scenario::Scenario& s : set.scenarios)
        if (clients.find(s.client) == std::string::npos) clients += (clients.empty() ? "" : ", ") + s.client;
      throw UsageError(fmt::format("--client {}: no scenario is written for it (scenarios judge: {})", options.client,
                                   clients.empty() ? "none" : clients));
    }
    asked.insert(asked.end(), of_client.begin(), of_client.end());
  }
  return asked;
}

std::string losses_of(const scenario::Scenario& s) {
  std::string out;
  for (checker::Loss loss : s.loss) out += (out.empty() ? "" : " or ") + std::string(to_string(loss));
  return out;
}

void run_scenarios(const ScenarioOptions& options, const GlobalOptions& global) {
  check_own_ports(options.campaign);
  scenario::ScenarioSet set = scenario::shipped_scenarios();
  std::vector<scenario::Scenario> asked = scenarios_asked(options, set);
  protocol::Catalogue catalogue = protocol::shipped_catalogue();
  std::vector<scenario::ScenarioPlan> plans;
  for (const scenario::Scenario& s : asked)
    plans.push_back(scenario::plan_scenario(s, catalogue, {options.trials, options.versions}));
  lab::RunSetup lab = setup_to_change_data(global, "scenario", ServersChanged::redis_and_db);
  chaos::ChaosSetup base = campaign_setup(options.campaign, lab);
  std::vector<scenario::ScenarioResult> results;
  for (const scenario::ScenarioPlan& plan : plans) {
    const scenario::Scenario& s = plan.scenario;
    fmt::print("{}: {} ({})\n", s.name, s.report.title, s.report.url);
    std::vector<scenario::VersionTally> tallies;
    for (std::size_t i = 0; i < plan.versions.size(); ++i) {
      scenario::VersionTally t = scenario::run_version(plan, i, base, options.campaign.jobs);
      write_run_report(t.run_dir, global, "scenario");
      fmt::print("{} at {}: {} of {} trials showed {}; run: {}{}\n", s.name, t.version, t.showed, t.trials,
                 losses_of(s), t.run_dir.string(), t.timeline.empty() ? "" : "; timeline: " + t.timeline.string());
      tallies.push_back(t);
    }
    std::string verdict = scenario::verdict_line(tallies);
    fmt::print("{}: {}\n", s.name, verdict);
    results.push_back({s.name, s.client, verdict, tallies});
  }
  if (!options.json.empty()) scenario::write_results_file(options.json, base.seed, results);
}

}  // namespace

void register_scenario(CLI::App& app, const GlobalOptions& global) {
  auto options = std::make_shared<ScenarioOptions>();
  CLI::App* cmd = app.add_subcommand(
      "scenario", "replay reported failures (rlock scenarios) at each version of their library, with a verdict");
  cmd->add_option("names", options->names, "the scenarios to run (rlock scenarios lists them)");
  cmd->add_option("--client", options->client, "NAME: every scenario written for this catalogue client");
  cmd->add_option("--trials", options->trials, "trials a version (default: the scenario's)")
      ->check(util::in_range(1, scenario::kMaxScenarioTrials));
  cmd->add_option("--versions", options->versions, "comma-separated: only these of the scenario's versions")
      ->delimiter(',');
  cmd->add_option("--json", options->json, "also write the verdicts and counts as JSON to this file");
  add_campaign_options(*cmd, options->campaign);
  cmd->callback([options, &global] { run_scenarios(*options, global); });
}

}  // namespace rlock::cli
