// rlock timeline [--out FILE] [--width PX] [--title TEXT]: draws the run's events as one SVG
// (timeline.svg in the data directory unless --out says otherwise) and prints its path. --lang
// picks the labels' language.
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "timeline/timeline_svg.h"
#include "util/option_checks.h"

namespace rlock::cli {
namespace {

struct TimelineOptions {
  std::string out;    // empty: timeline.svg in the data directory
  std::string title;  // empty: the data directory's name
  int width = timeline::SvgOptions{}.width;
};

void timeline(const TimelineOptions& options, const GlobalOptions& global) {
  lab::RunSetup setup = global.setup();
  std::filesystem::path out = options.out.empty() ? setup.dir.timeline() : std::filesystem::path(options.out);
  std::string title = options.title;
  if (title.empty()) {
    std::filesystem::path root = std::filesystem::absolute(setup.dir.root()).lexically_normal();
    title = (root.has_filename() ? root : root.parent_path()).filename().string();
  }
  timeline::write_timeline(setup.dir, out, timeline::SvgOptions{title, setup.lang, options.width});
  fmt::print("{}\n", out.string());
}

}  // namespace

void register_timeline(CLI::App& app, const GlobalOptions& global) {
  auto options = std::make_shared<TimelineOptions>();
  CLI::App* cmd = app.add_subcommand("timeline", "draw the run's events on a time axis as an SVG and print its path");
  cmd->add_option("--out", options->out, "the SVG file to write (default: timeline.svg in the data directory)");
  cmd->add_option("--width", options->width, "the drawing's width in pixels")
      ->check(util::in_range(400, 10000))
      ->capture_default_str();
  cmd->add_option("--title", options->title, "the title above the verdict (default: the data directory's name)");
  cmd->callback([options, &global] { timeline(*options, global); });
}

}  // namespace rlock::cli
