#include "card/judgement.h"

#include <fmt/format.h>

#include "card/card_page.h"
#include "checker/tally.h"
#include "rlock/error.h"
#include "runner/run_campaign.h"
#include "store/run_record.h"

namespace rlock::card {

namespace {

// The campaign of one topology, kept as a run: its verdict, and the run's directory.
std::pair<LibraryVerdict, std::filesystem::path> judge_on(const JudgeRequest& request, const JudgedTopology& topology,
                                                          chaos::ChaosSetup setup) {
  std::vector<protocol::ClientSpec> clients{request.subject.client};
  if (request.subject.fenced) clients.push_back(*request.subject.fenced);
  chaos::Campaign campaign{{}, clients, topology.faults, request.trials, request.jobs};
  campaign.topology = topology.topology;
  setup.run_dir = store::new_run_dir(setup.dir, setup.seed);
  std::vector<checker::TrialResult> results = runner::run_campaign(campaign, setup);
  runner::check_harness(results);
  std::vector<checker::Cell> cells = checker::tabulate(campaign, results);
  checker::write_json((setup.run_dir / "chaos.json").string(), cells, campaign, setup);
  checker::check_judged(cells, "the judge's campaign");
  return {verdict_of(request.subject, topology.faults, results, topology.topology), setup.run_dir};
}

}  // namespace

Judgement run_judgement(const JudgeRequest& request, chaos::ChaosSetup setup, lab::Lang lang) {
  const chaos::ChaosSetup scenarios_setup = setup;  // the scenarios' trials are theirs, whatever the workload
  if (request.workload.history()) setup.workload = request.workload;
  if (request.topologies.empty()) throw Error("the judge has no topology to judge on");
  Judgement judgement;
  std::filesystem::path loss_run;  // the run of the shortest loss, of any topology
  for (const JudgedTopology& topology : request.topologies) {
    auto [verdict, run_dir] = judge_on(request, topology, setup);
    if (judgement.run_dirs.empty()) {
      judgement.verdict = std::move(verdict);
      if (judgement.verdict.shortest_loss) loss_run = run_dir;
    } else {
      for (FaultVerdict& f : verdict.faults) judgement.verdict.faults.push_back(std::move(f));
      const auto& shortest = judgement.verdict.shortest_loss;
      if (verdict.shortest_loss && (!shortest || verdict.shortest_loss->ms < shortest->ms)) {
        judgement.verdict.shortest_loss = verdict.shortest_loss;
        loss_run = run_dir;
      }
    }
    judgement.run_dirs.push_back(run_dir);
  }
  const std::filesystem::path& first_run = judgement.run_dirs.front();
  judgement.card = request.card.value_or(first_run / "card.html");
  for (const scenario::ScenarioPlan& plan : request.subject.scenarios) {
    judgement.verdict.scenarios.push_back({plan.scenario.name, plan.scenario.report.title,
                                           scenario::strikes_text(plan.scenario),
                                           scenario::run_scenario(plan, scenarios_setup, request.jobs)});
  }
  CardFacts facts{JudgedSetup{request.subject.library, static_cast<long>(setup.ttl.count()),
                              request.subject.ttl_step_ms, request.trials, setup.seed, request.workload},
                  first_run, std::nullopt};
  if (judgement.verdict.shortest_loss) {
    facts.loss_trial = loss_run / "trials" / store::trial_dir_name(judgement.verdict.shortest_loss->spec);
  }
  print_verdict(judgement.verdict, facts.setup);
  write_card(judgement.verdict, facts, lang, judgement.card);
  fmt::print("card: {}\n", judgement.card.string());
  for (const std::filesystem::path& run : judgement.run_dirs)
    fmt::print("run: {} (rlock report DIR, rlock analyze DIR)\n", run.string());
  return judgement;
}

}  // namespace rlock::card
