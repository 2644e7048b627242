#include "lab/strategy_list.h"

#include <algorithm>

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock::lab {

std::vector<Strategy> parse_strategy_list(const std::vector<std::string>& names,
                                          const std::vector<Strategy>& by_default) {
  return parse_strategy_list(names, by_default, "--strategies", all_strategies());
}

std::vector<Strategy> parse_strategy_list(const std::vector<std::string>& names,
                                          const std::vector<Strategy>& by_default, std::string_view flag,
                                          const std::vector<Strategy>& runs) {
  if (names.empty()) return by_default;
  if (names == std::vector<std::string>{"none"} || names == std::vector<std::string>{""}) return {};
  std::vector<Strategy> strategies;
  for (const std::string& name : names) {
    if (name.empty() || name == "none") {
      throw UsageError(fmt::format("{}: '{}' stands alone, for no strategy", flag, name));
    }
    std::optional<Strategy> strategy = strategy_from(name);
    if (!strategy || std::find(runs.begin(), runs.end(), *strategy) == runs.end()) {
      std::string known;
      for (Strategy s : runs) known += fmt::format("{}{}", known.empty() ? "" : ",", to_string(s));
      throw UsageError(strategy ? fmt::format("{}: '{}' is not one of {}", flag, name, known)
                                : fmt::format("{}: unknown strategy '{}' (known: {})", flag, name, known));
    }
    if (std::find(strategies.begin(), strategies.end(), *strategy) != strategies.end()) {
      throw UsageError(fmt::format("{}: '{}' is named twice", flag, name));
    }
    strategies.push_back(*strategy);
  }
  return strategies;
}

bool any_on_three_servers(const std::vector<Strategy>& strategies) {
  return std::any_of(strategies.begin(), strategies.end(), [](Strategy s) { return lock_servers(s) == 3; });
}

}  // namespace rlock::lab
