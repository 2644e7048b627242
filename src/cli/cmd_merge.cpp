// rlock merge SHARD_DIR... [--json FILE]: the runs of `rlock chaos --shard K/N`, K from 1 to N,
// merged into one run of the whole campaign (store/merge.h), stored under chaos/runs/ with its
// chaos.json and report.html, its table printed as `rlock chaos` prints it. A command of its own
// rather than `analyze --merge`: analyze reads one run and writes nothing, merge writes a new run,
// which analyze and report then read as any other. Exits 2 for shards that are not the N parts of
// one campaign (one line names the difference, the shard missing or given twice), 1 for a shard
// of an interrupted campaign, a shard whose files are not a run's (a trial line changed after its
// seal, a link or a FIFO among its files, a foreign trial directory) and shards in which not one
// trial was judged, each leaving no run; 4 when a cell expected to be safe showed an anomaly.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "checker/tally.h"
#include "cli/commands.h"
#include "cli/run_report.h"
#include "store/merge.h"
#include "util/own_dir.h"

namespace rlock::cli {
namespace {

struct MergeOptions {
  std::vector<std::string> shards;
  std::string json;
};

void merge(const MergeOptions& options, const GlobalOptions& global) {
  std::vector<std::filesystem::path> dirs(options.shards.begin(), options.shards.end());
  for (const std::filesystem::path& dir : dirs) util::check_own_dir(dir, "merge: the shard");
  store::MergedRun run = store::merge_shards(dirs, global.setup().dir.root() / "chaos");
  fmt::print("rlock merge: {} shards of plan {}, seed {}, {} trials a cell, TTL {}ms\n", run.shards, run.fingerprint,
             run.setup.seed, run.campaign.trials, run.setup.ttl.count());
  checker::print_table(run.cells, run.setup);
  if (!options.json.empty()) checker::write_json(options.json, run.cells, run.campaign, run.setup);
  checker::write_json((run.setup.run_dir / "chaos.json").string(), run.cells, run.campaign, run.setup);
  fmt::print(stderr, "merge: the run is stored in {} (rlock analyze DIR checks it again)\n",
             run.setup.run_dir.string());
  write_run_report(run.setup.run_dir, global, "merge");
  checker::check_expected_safe(run.cells);
}

}  // namespace

void register_merge(CLI::App& app, const GlobalOptions& global) {
  auto options = std::make_shared<MergeOptions>();
  CLI::App* cmd =
      app.add_subcommand("merge", "merge the runs of rlock chaos --shard K/N into one run of the whole campaign");
  cmd->add_option("shard_dirs", options->shards,
                  "the N shards' run directories: DATA_DIR/chaos/runs/TIME-seedS-shardKofN")
      ->required();
  cmd->add_option("--json", options->json, "also write the table as JSON to this file");
  cmd->callback([options, &global] { merge(*options, global); });
}

}  // namespace rlock::cli
