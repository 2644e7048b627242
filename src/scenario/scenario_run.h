// A scenario run: for each version of its library, one chaos campaign of the scenario's client at
// that version (the catalogue's `NAME@V`) under its fault, or as histories under its schedule, at its
// TTL and workers, kept as a chaos run whose run.json names the scenario and the version (`rlock
// analyze` and `rlock report` read it); then, a version, the trials judged, those that showed one
// of the scenario's losses and the 95% Wilson interval, and one verdict line for them all. The
// first trial that showed the loss is drawn as `timeline.svg` in its run's directory. `rlock scenario` and `rlock
// judge` call it.
//
//   ScenarioSet set = shipped_scenarios();
//   for (const Scenario& s : scenarios_for_client(set, "etcd-mutex")) {
//     ScenarioPlan plan = plan_scenario(s, protocol::shipped_catalogue(), {});  // before any server
//     std::vector<VersionTally> tallies = run_scenario(plan, setup, jobs);
//     fmt::print("{}: {}\n", s.name, verdict_line(tallies));
//   }
//
// plan_scenario reads no server; run_scenario runs in the calling process, which must have no other
// threads (chaos campaigns fork). last_tallies reads only sealed chaos runs, each file bounded as
// `rlock analyze` bounds it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checker/judge.h"
#include "protocol/client_catalogue.h"
#include "scenario/scenario_file.h"

namespace rlock::scenario {

// One version of a scenario's library, resolved in the catalogue.
struct VersionPlan {
  std::string version;          // as the scenario names it: 3.4.3
  protocol::ClientSpec client;  // the catalogue's NAME@V (its spec.name the row's name)
};

struct ScenarioPlan {
  Scenario scenario;
  std::vector<VersionPlan> versions;  // in the scenario's order
  int trials = 0;                     // a version
};

struct PlanOptions {
  int trials = 0;                     // 0: the scenario's
  std::vector<std::string> versions;  // empty: all of the scenario's
};

// The scenario's versions resolved in `catalogue`. Throws UsageError, in one line: a version the
// scenario does not name (listing those it does), a client or version the catalogue does not ship
// or has not installed (naming `scripts/clients.sh install NAME@V`), trials out of 1 to
// kMaxScenarioTrials.
ScenarioPlan plan_scenario(const Scenario& scenario, const protocol::Catalogue& catalogue, const PlanOptions& options);

// What one version's campaign showed.
struct VersionTally {
  std::string version;
  long trials = 0;                       // judged, and when client-error is a loss, the unjudged ones it ended
  long showed = 0;                       // of them, the trials that showed one of the scenario's losses
  long not_run = 0;                      // planned but not run or not judged
  std::pair<double, double> interval{};  // the 95% Wilson interval of showed / trials
  std::filesystem::path run_dir;         // the kept chaos run
  std::string first_trial;               // the first trial that showed it (ROW-FAULT-N); empty when none
  std::filesystem::path timeline;        // its drawing beside the run; empty when none was drawn

  bool reproduces() const { return showed > 0; }
};

// The tally of one version's trials.
VersionTally tally(const std::string& version, const std::vector<checker::TrialResult>& trials,
                   const std::vector<checker::Loss>& losses);

// "reproduces in 3.4.3 (7/20, 95% 18-57%), not in 3.5.21 (0/20, 0-16%)", or "does not reproduce in
// any version judged: 3.5.21 (0/20, 0-16%)"; "no trial judged" when no version judged one.
std::string verdict_line(const std::vector<VersionTally>& tallies);

// Runs one version of `plan` (its index) on `base`'s servers: base.dir is the chaos directory,
// base.seed the seed every version shares; its ttl, run_dir and scenario are set here. The run is
// stored and sealed, its chaos.json written. Throws chaos::HarnessLost when the campaign lost a
// server, and what run_campaign throws.
VersionTally run_version(const ScenarioPlan& plan, std::size_t index, const chaos::ChaosSetup& base, int jobs);

// run_version for each version, in order.
std::vector<VersionTally> run_scenario(const ScenarioPlan& plan, const chaos::ChaosSetup& base, int jobs);

// The last verdict of `scenario` kept under `chaos_dir` (runs/): for each of its versions, the tally
// of the newest sealed run of that scenario and version, judged again from its trials; versions
// never run are left out, so an empty list means "not run". A run that cannot be read is skipped.
std::vector<VersionTally> last_tallies(const Scenario& scenario, const std::filesystem::path& chaos_dir);

}  // namespace rlock::scenario
