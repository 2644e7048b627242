// rlock showlog: the run's events sorted by time (ties keep their order), one article line each.
#include <fmt/format.h>

#include "cli/commands.h"
#include "lab/run_log.h"

namespace rlock::cli {

void register_showlog(CLI::App& app, const GlobalOptions& global) {
  CLI::App* cmd = app.add_subcommand("showlog", "print the run's log sorted by time (--lang picks the language)");
  cmd->callback([&global] {
    lab::RunSetup setup = global.setup();
    std::vector<lab::Event> events = lab::read_events(setup.dir);
    lab::sort_by_time(events);
    for (const lab::Event& event : events) fmt::print("{}\n", lab::format_line(event, setup.lang));
  });
}

}  // namespace rlock::cli
