#include "card/judgement.h"

#include <fmt/format.h>

#include "card/card_page.h"
#include "checker/tally.h"
#include "runner/run_campaign.h"
#include "store/run_record.h"

namespace rlock::card {

Judgement run_judgement(const JudgeRequest& request, chaos::ChaosSetup setup, lab::Lang lang) {
  std::vector<protocol::ClientSpec> clients{request.subject.client};
  if (request.subject.fenced) clients.push_back(*request.subject.fenced);
  chaos::Campaign campaign{{}, clients, request.faults, request.trials, request.jobs};
  const chaos::ChaosSetup scenarios_setup = setup;  // the scenarios' trials are theirs, whatever the workload
  if (request.workload.history()) setup.workload = request.workload;
  setup.run_dir = store::new_run_dir(setup.dir, setup.seed);
  std::vector<checker::TrialResult> results = runner::run_campaign(campaign, setup);
  runner::check_harness(results);
  std::vector<checker::Cell> cells = checker::tabulate(campaign, results);
  checker::write_json((setup.run_dir / "chaos.json").string(), cells, campaign, setup);
  checker::check_judged(cells, "the judge's campaign");

  Judgement judgement{verdict_of(request.subject, request.faults, results), setup.run_dir,
                      request.card.value_or(setup.run_dir / "card.html")};
  for (const scenario::ScenarioPlan& plan : request.subject.scenarios) {
    judgement.verdict.scenarios.push_back({plan.scenario.name, plan.scenario.report.title,
                                           scenario::strikes_text(plan.scenario),
                                           scenario::run_scenario(plan, scenarios_setup, request.jobs)});
  }
  CardFacts facts{JudgedSetup{request.subject.library, static_cast<long>(setup.ttl.count()),
                              request.subject.ttl_step_ms, request.trials, setup.seed, request.workload},
                  setup.run_dir, std::nullopt};
  if (judgement.verdict.shortest_loss) {
    facts.loss_trial = setup.run_dir / "trials" / store::trial_dir_name(judgement.verdict.shortest_loss->spec);
  }
  print_verdict(judgement.verdict, facts.setup);
  write_card(judgement.verdict, facts, lang, judgement.card);
  fmt::print("card: {}\nrun: {} (rlock report DIR, rlock analyze DIR)\n", judgement.card.string(),
             setup.run_dir.string());
  return judgement;
}

}  // namespace rlock::card
