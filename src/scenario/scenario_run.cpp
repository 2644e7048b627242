#include "scenario/scenario_run.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "checker/tally.h"
#include "lab/run_log.h"
#include "rlock/error.h"
#include "runner/run_campaign.h"
#include "store/run_record.h"
#include "timeline/timeline_svg.h"
#include "util/stats.h"

namespace rlock::scenario {
namespace {

namespace fs = std::filesystem;

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string percent(double fraction) { return fmt::format("{:.0f}", std::round(fraction * 100)); }

// "3.4.3 (7/20, 95% 18-57%)", or "3.5.21 (0/20, 0-16%)".
std::string counted(const VersionTally& t) {
  return fmt::format("{} ({}/{}, {}{}-{}%)", t.version, t.showed, t.trials, t.reproduces() ? "95% " : "",
                     percent(t.interval.first), percent(t.interval.second));
}

// Draws the kept trial `name` of `run_dir` as run_dir/timeline.svg; the path, or empty when the
// trial left no events to draw.
fs::path draw_first(const fs::path& run_dir, const std::string& name, const std::string& title) {
  fs::path kept = run_dir / "trials" / name;
  std::error_code missing;
  if (!fs::is_regular_file(kept / "events.jsonl", missing)) return {};
  fs::path out = run_dir / "timeline.svg";
  timeline::write_timeline(lab::LogDir(kept), out, timeline::SvgOptions{title});
  return out;
}

}  // namespace

ScenarioPlan plan_scenario(const Scenario& scenario, const protocol::Catalogue& catalogue, const PlanOptions& options) {
  ScenarioPlan plan{scenario, {}, options.trials == 0 ? scenario.trials : options.trials};
  if (plan.trials < 1 || plan.trials > kMaxScenarioTrials)
    throw UsageError(fmt::format("--trials {}: from 1 to {}", plan.trials, kMaxScenarioTrials));
  for (const std::string& v : options.versions) {
    if (std::find(scenario.versions.begin(), scenario.versions.end(), v) == scenario.versions.end()) {
      throw UsageError(fmt::format("--versions {}: {} has no version {} (its versions: {})", v, scenario.name, v,
                                   joined(scenario.versions)));
    }
  }
  for (const std::string& v : scenario.versions) {
    bool asked = options.versions.empty() ||
                 std::find(options.versions.begin(), options.versions.end(), v) != options.versions.end();
    if (asked)
      plan.versions.push_back(VersionPlan{v, protocol::shipped_client(catalogue, scenario.client + "@" + v).spec});
  }
  for (chaos::Fault fault : scenario_faults(scenario)) {
    if (std::string_view why = chaos::not_applicable_to_client(fault, plan.versions.front().client, scenario.topology);
        !why.empty()) {
      throw UsageError(fmt::format("{}: the fault {} does not apply to {}: {}", scenario.name, to_string(fault),
                                   scenario.client, why));
    }
  }
  return plan;
}

VersionTally tally(const std::string& version, const std::vector<checker::TrialResult>& trials,
                   const std::vector<checker::Loss>& losses) {
  VersionTally t;
  t.version = version;
  bool errors_count = std::find(losses.begin(), losses.end(), checker::Loss::client_error) != losses.end();
  for (const checker::TrialResult& r : trials) {
    checker::Classification shown = checker::classify(r);
    if (!shown.judged && !(shown.client_error && errors_count && !r.not_run)) {
      ++t.not_run;
      continue;
    }
    ++t.trials;
    if (showed_loss(r, losses)) {
      if (t.showed++ == 0) t.first_trial = store::trial_dir_name(r.spec);
    }
  }
  t.interval = util::wilson_interval(t.showed, t.trials);
  return t;
}

std::string verdict_line(const std::vector<VersionTally>& tallies) {
  std::vector<std::string> in, not_in;
  for (const VersionTally& t : tallies) {
    if (t.trials > 0) (t.reproduces() ? in : not_in).push_back(counted(t));
  }
  if (in.empty() && not_in.empty()) return "no trial judged";
  if (in.empty()) return "does not reproduce in any version judged: " + joined(not_in);
  std::string line = "reproduces in " + joined(in);
  if (!not_in.empty()) line += ", not in " + joined(not_in);
  return line;
}

VersionTally run_version(const ScenarioPlan& plan, std::size_t index, const chaos::ChaosSetup& base, int jobs) {
  const Scenario& s = plan.scenario;
  const VersionPlan& version = plan.versions.at(index);
  chaos::ChaosSetup setup = base;
  setup.ttl = std::chrono::milliseconds(s.ttl_ms);
  setup.workers = s.workers;
  if (s.history) {
    setup.workload = s.history->workload;
    setup.nemesis = s.history->nemesis;
  }
  setup.scenario = chaos::ScenarioLabel{s.name, version.version};
  setup.keep_incomplete = true;
  setup.run_dir = store::new_run_dir(setup.dir, setup.seed);
  chaos::Campaign campaign{{}, {version.client}, {s.fault}, plan.trials, std::min(jobs, plan.trials)};
  campaign.topology = s.topology;
  std::vector<checker::TrialResult> results = runner::run_campaign(campaign, setup);
  checker::write_json((setup.run_dir / "chaos.json").string(), checker::tabulate(campaign, results), campaign, setup);
  runner::check_harness(results);
  VersionTally t = tally(version.version, results, s.loss);
  t.run_dir = setup.run_dir;
  if (!t.first_trial.empty()) {
    t.timeline =
        draw_first(t.run_dir, t.first_trial, fmt::format("{} on {}: {}", s.name, version.client.name, t.first_trial));
  }
  return t;
}

std::vector<VersionTally> run_scenario(const ScenarioPlan& plan, const chaos::ChaosSetup& base, int jobs) {
  std::vector<VersionTally> tallies;
  for (std::size_t i = 0; i < plan.versions.size(); ++i) tallies.push_back(run_version(plan, i, base, jobs));
  return tallies;
}

std::vector<VersionTally> last_tallies(const Scenario& scenario, const fs::path& chaos_dir) {
  std::map<std::string, fs::path> newest;  // version -> run, the runs named by their start time
  std::error_code missing;
  for (const fs::directory_entry& entry : fs::directory_iterator(chaos_dir / "runs", missing)) {
    std::error_code unknown;
    if (!fs::is_directory(fs::symlink_status(entry.path(), unknown))) continue;
    try {
      store::RunFile run = store::load_run_file(entry.path());
      if (!run.setup.scenario || run.setup.scenario->name != scenario.name) continue;
      fs::path& kept = newest[run.setup.scenario->version];
      if (kept.empty() || kept.filename() < entry.path().filename()) kept = entry.path();
    } catch (const std::exception&) {  // not a sealed run of this rlock: not one of the scenario's
    }
  }
  std::vector<VersionTally> tallies;
  for (const std::string& version : scenario.versions) {
    auto run_dir = newest.find(version);
    if (run_dir == newest.end()) continue;
    try {
      store::StoredRun run = store::load_run(run_dir->second);
      std::vector<checker::TrialResult> results;
      for (const checker::TrialInput& input : run.trials) results.push_back(checker::judge(input));
      VersionTally t = tally(version, results, scenario.loss);
      t.run_dir = run_dir->second;
      tallies.push_back(t);
    } catch (const std::exception&) {  // damaged since: as if not run
    }
  }
  return tallies;
}

}  // namespace rlock::scenario
