// rlock help [SUBCOMMAND]: rlock --help, or SUBCOMMAND --help; an unknown name is a usage error
// naming the nearest subcommand.
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/usage_hints.h"
#include "rlock/error.h"

namespace rlock::cli {

void register_help(CLI::App& app) {
  auto topic = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("help", "this help, or a subcommand's (rlock help chaos)");
  cmd->add_option("SUBCOMMAND", *topic, "the subcommand whose options to show");
  cmd->callback([&app, topic] {
    if (topic->empty()) {
      // Not app.help(): with `help` selected, that would be this subcommand's own help.
      fmt::print("{}", app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal));
      return;
    }
    std::vector<CLI::App*> named = app.get_subcommands([&](CLI::App* sub) { return sub->get_name() == *topic; });
    if (named.empty()) throw UsageError(unknown_subcommand(app, *topic));
    fmt::print("{}", named.front()->help(app.get_name()));
  });
}

}  // namespace rlock::cli
