#include "store/judged_run.h"

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "store/run_file.h"
#include "store/run_record.h"
#include "store/trial_line.h"

namespace rlock::store {

void judge_trial_lines(
    const std::filesystem::path& run_dir, const chaos::Campaign& part, PlanTally& plan,
    std::vector<checker::Cell>& cells,
    const std::function<void(std::string_view, const checker::TrialInput&, const checker::TrialResult&)>& line) {
  for_each_trial_line(run_dir, [&](std::string_view text, const nlohmann::json& j, const std::string& where) {
    checker::TrialInput input = trial_input_from(j, plan.meet(trial_key_of(j), part, where));
    checker::TrialResult result = checker::judge(input);
    checker::tally(cells, result);
    if (line) line(text, input, result);
  });
}

void close_table(const PlanTally& plan, std::vector<checker::Cell>& cells) {
  plan.for_each_unmet([&](const chaos::TrialSpec& spec) {
    checker::TrialInput missing(spec);
    missing.error = chaos::kNoResult;  // as load_run reads a trial that left no line
    checker::tally(cells, checker::judge(missing));
  });
  for (checker::Cell& c : cells) {
    std::sort(c.kept.begin(), c.kept.end(),
              [](const std::string& a, const std::string& b) { return std::stoi(a) < std::stoi(b); });
  }
}

JudgedRun judge_stored_run(const std::filesystem::path& run_dir) {
  RunFile file = load_run_file(run_dir);
  JudgedRun run{file.campaign, file.setup, checker::empty_table(file.campaign)};
  run.setup.run_dir = run_dir;
  PlanTally plan(run.campaign);
  judge_trial_lines(run_dir, run.campaign, plan, run.cells);
  close_table(plan, run.cells);
  return run;
}

}  // namespace rlock::store
