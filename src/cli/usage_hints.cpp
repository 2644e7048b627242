#include "cli/usage_hints.h"

#include <algorithm>
#include <regex>
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

std::string unknown_option(const CLI::App& app, const std::string& typed) {
  std::vector<std::string> names;
  for (const CLI::App* command = &app; command != nullptr;
       command = command->get_subcommands().empty() ? nullptr : command->get_subcommands().front()) {
    for (const CLI::Option* option : command->get_options()) {
      for (const std::string& name : option->get_lnames()) names.push_back(name);
    }
  }
  std::string name = typed.substr(0, typed.find('='));
  // Compared without the dashes, which would make every name near.
  std::string near = util::nearest_name(name.substr(std::min(name.find_first_not_of('-'), name.size())), names);
  return fmt::format("unknown option '{}'{} (see {})", name,
                     near.empty() ? "" : fmt::format(": did you mean '--{}'?", near), help_command(app));
}

std::string plain_parse_error(const CLI::App& app, const CLI::ParseError& e) {
  const std::string what = e.what();
  std::smatch m;
  std::string said = what;
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    std::vector<std::string> extras = app.remaining(true);
    auto option = std::find_if(extras.begin(), extras.end(), [](const std::string& w) { return w.starts_with("-"); });
    if (option != extras.end()) return unknown_option(app, *option);
    if (!extras.empty()) said = fmt::format("unexpected argument '{}'", extras.front());
  } else if (std::regex_match(what, m, std::regex(R"((\S+): \d+ required (.+) missing)"))) {
    said = fmt::format("{}: its value is missing ({})", m[1].str(), m[2].str());
  } else if (std::regex_match(what, m, std::regex(R"((\S+): At Most (\d+) required but received (\d+))"))) {
    said = fmt::format("{}: given {} times, at most {}", m[1].str(), m[3].str(), m[2].str());
  } else if (std::regex_match(what, m, std::regex(R"((\S+): Value (.*) not in range 0\.0+ to [0-9.]+)"))) {
    said = fmt::format("{}: '{}' is not a number above 0", m[1].str(), m[2].str());  // CLI::PositiveNumber
  } else if (std::regex_match(what, m, std::regex(R"(Could not convert: (\S+) = (.*))"))) {
    said = fmt::format("{}: '{}' is not a value it takes", m[1].str(), m[2].str());
  }
  return fmt::format("{} (see {})", said, help_command(app));
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
