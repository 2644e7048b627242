// rlock report [DIR...] [--out FILE.html]: one self-contained HTML page of the runs stored in the
// directories (report/report.h; default: --dir), written to FILE.html (default: DIR/report.html
// for one directory) and its path printed. --lang picks the page's language; --shortest-loss draws
// a chaos run's card: each row's shortest loss.
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "report/report.h"
#include "rlock/error.h"
#include "util/own_dir.h"

namespace rlock::cli {
namespace {

struct ReportOptions {
  std::vector<std::string> dirs;  // empty: the global --dir
  std::string out;                // empty: report.html in the one directory
  bool shortest_loss = false;     // a chaos run: each row's shortest loss, not each cell's first trials
};

void report(const ReportOptions& options, const GlobalOptions& global) {
  std::vector<std::filesystem::path> dirs(options.dirs.begin(), options.dirs.end());
  if (dirs.empty()) dirs.emplace_back(global.own_data_dir());
  if (options.out.empty() && dirs.size() > 1) throw UsageError("report: give --out for a page of several runs");
  for (const std::filesystem::path& dir : dirs) {
    if (std::filesystem::is_directory(dir)) util::check_own_dir(dir, "report: the run directory");
  }
  std::filesystem::path out = options.out.empty() ? dirs.front() / "report.html" : std::filesystem::path(options.out);
  util::check_own_dir(out.parent_path().empty() ? "." : out.parent_path(), "report: the directory of --out");
  report::write_report(
      dirs, out, lab::parse_lang(global.lang),
      options.shortest_loss ? report::Timelines::shortest_loss_of_each_row : report::Timelines::first_of_each_cell);
  fmt::print("{}\n", out.string());
}

}  // namespace

void register_report(CLI::App& app, const GlobalOptions& global) {
  auto options = std::make_shared<ReportOptions>();
  CLI::App* cmd = app.add_subcommand(
      "report",
      "write one HTML page of stored runs (a data directory, a chaos.json or a bench.json) and print its path");
  cmd->add_option("dirs", options->dirs, "run directories (default: --dir)");
  cmd->add_option("--out", options->out, "the HTML file to write (default: report.html in the one run directory)");
  cmd->add_flag("--shortest-loss", options->shortest_loss,
                "a chaos run: draw each row's shortest loss instead of each cell's first kept trials (a card)");
  cmd->callback([options, &global] { report(*options, global); });
}

}  // namespace rlock::cli
