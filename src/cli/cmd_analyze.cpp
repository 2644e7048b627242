// rlock analyze RUN_DIR [--json FILE] [--compare ROW:FAULT ROW:FAULT]: the checkers run again on a
// stored chaos run's histories (store/run_record.h), one trial at a time (store/judged_run.h), the
// same judgement as the campaign's (checker/judge.h), and the same table printed; --compare adds two cells' counts,
// Wilson intervals and Fisher's exact p-value. Exits as rlock chaos does: 4 when a cell expected to be safe showed an
// anomaly, and 1 for a run in which not one trial was judged. Writes nothing but --json's file, and that only once the
// whole run has been read.
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "chaos/workload.h"
#include "checker/tally.h"
#include "cli/commands.h"
#include "rlock/error.h"
#include "store/judged_run.h"
#include "store/run_record.h"
#include "util/own_dir.h"

namespace rlock::cli {
namespace {

struct AnalyzeOptions {
  std::string run_dir;
  std::string json;
  std::vector<std::string> compare;  // two ROW:FAULT
};

// ROW:FAULT's cell of `cells`; throws UsageError naming what is wrong.
const checker::Cell& cell_named(const std::vector<checker::Cell>& cells, const std::string& text) {
  auto colon = text.rfind(':');
  std::optional<chaos::Fault> fault =
      colon == std::string::npos ? std::nullopt : chaos::fault_from(text.substr(colon + 1));
  if (!fault) throw UsageError(fmt::format("--compare {}: expected ROW:FAULT, e.g. fenced-retry:pause", text));
  const checker::Cell* cell = checker::find_cell(cells, text.substr(0, colon), *fault);
  if (cell == nullptr) throw UsageError(fmt::format("--compare {}: the run has no such cell", text));
  return *cell;
}

void analyze(const AnalyzeOptions& options) {
  util::check_own_dir(options.run_dir, "analyze: the run directory");
  store::JudgedRun run = store::judge_stored_run(options.run_dir);
  const std::vector<checker::Cell>& cells = run.cells;
  checker::check_judged(cells, options.run_dir);
  const checker::Cell* a = options.compare.empty() ? nullptr : &cell_named(cells, options.compare[0]);
  const checker::Cell* b = options.compare.empty() ? nullptr : &cell_named(cells, options.compare[1]);
  fmt::print("rlock analyze: {}, seed {}, {} trials a cell, TTL {}ms{}\n", options.run_dir, run.setup.seed,
             run.campaign.trials, run.setup.ttl.count(), chaos::history_text(run.setup.workload, run.setup.nemesis));
  checker::print_table(cells, run.setup);
  if (a != nullptr) checker::print_comparison(*a, *b);
  if (!options.json.empty()) checker::write_json(options.json, cells, run.campaign, run.setup);
  checker::check_expected_safe(cells);
}

}  // namespace

void register_analyze(CLI::App& app, const GlobalOptions&) {
  auto options = std::make_shared<AnalyzeOptions>();
  CLI::App* cmd = app.add_subcommand("analyze", "run the checkers again on a stored chaos run and print its table");
  cmd->add_option("run_dir", options->run_dir, "a run directory: DATA_DIR/chaos/runs/TIME-seedS")->required();
  cmd->add_option("--json", options->json, "also write the table as JSON to this file");
  cmd->add_option("--compare", options->compare, "ROW:FAULT ROW:FAULT: two cells' rates and Fisher's exact p-value")
      ->expected(2);
  cmd->callback([options] { analyze(*options); });
}

}  // namespace rlock::cli
