// Checks for command-line options that show their limits as people write them: a range as
// "1 to 3600" (CLI11's own prints "0.000000 to 3600.000000"), an enum by its names alone (CLI11's
// CheckedTransformer prints "{poll->0,notify->1} OR {0,1}"). Header-only, for whoever binds flags
// (src/cli, lab's worker flags); CLI11 itself is the includer's. Stateless: thread-safe.
#pragma once

#include <map>
#include <string>
#include <type_traits>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

namespace rlock::util {

// A number from min to max, both included. Shown as "in [min, max]" in the help.
template <typename T>
CLI::Validator in_range(T min, T max) {
  static_assert(std::is_arithmetic_v<T>);
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        T value{};
        if (!CLI::detail::lexical_cast(text, value)) return fmt::format("'{}' is not a number", text);
        if (value < min || value > max) return fmt::format("{} is not in {} to {}", text, min, max);
        return "";
      },
      fmt::format("{} to {}", min, max));
}

// The names of an enum option, joined with '|' as the help shows them ("poll|notify|queue").
template <typename T>
std::string names_of(const std::map<std::string, T>& table) {
  std::string names;
  for (const auto& [name, value] : table) names += (names.empty() ? "" : "|") + name;
  return names;
}

// One of the table's names, given to the option as its value (an enum): the help and the error
// name the names alone. Pair it with ->type_name(names_of(table)) and a default_str by name.
template <typename T>
CLI::Validator by_name(const std::map<std::string, T>& table) {
  return CLI::Validator(
      [table](std::string& text) -> std::string {
        auto found = table.find(text);
        if (found == table.end()) return fmt::format("'{}' is not one of {}", text, names_of(table));
        text = std::to_string(static_cast<std::underlying_type_t<T>>(found->second));
        return "";
      },
      "");
}

}  // namespace rlock::util
