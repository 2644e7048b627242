#include "cli/usage_hints.h"

#include <vector>

#include <fmt/format.h>

#include "util/nearest_name.h"

namespace rlock::cli {

std::string unknown_subcommand(CLI::App& app, const std::string& typed) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) names.push_back(sub->get_name());
  std::string near = util::nearest_name(typed, names);
  return fmt::format("unknown subcommand '{}'{} (rlock help lists them)", typed,
                     near.empty() ? "" : fmt::format(": did you mean '{}'?", near));
}

std::optional<std::string> stray_subcommand(const CLI::App& app) {
  for (const std::string& word : app.remaining()) {
    if (!word.starts_with("-")) return word;
  }
  return std::nullopt;
}

std::string help_command(const CLI::App& app) {
  std::string command = "rlock";
  for (const CLI::App* sub = &app; !sub->get_subcommands().empty();) {
    sub = sub->get_subcommands().front();
    command += " " + sub->get_name();
  }
  return command + " --help";
}

}  // namespace rlock::cli
