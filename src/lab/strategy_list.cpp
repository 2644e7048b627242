#include "lab/strategy_list.h"

#include <algorithm>

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock::lab {

std::vector<Strategy> parse_strategy_list(const std::vector<std::string>& names,
                                          const std::vector<Strategy>& by_default) {
  if (names.empty()) return by_default;
  if (names == std::vector<std::string>{"none"} || names == std::vector<std::string>{""}) return {};
  std::vector<Strategy> strategies;
  for (const std::string& name : names) {
    if (name.empty() || name == "none") {
      throw UsageError(fmt::format("--strategies: '{}' stands alone, for no strategy", name));
    }
    std::optional<Strategy> strategy = strategy_from(name);
    if (!strategy) {
      std::string known;
      for (Strategy s : all_strategies()) known += fmt::format("{}{}", known.empty() ? "" : ",", to_string(s));
      throw UsageError(fmt::format("--strategies: unknown strategy '{}' (known: {})", name, known));
    }
    if (std::find(strategies.begin(), strategies.end(), *strategy) != strategies.end()) {
      throw UsageError(fmt::format("--strategies: '{}' is named twice", name));
    }
    strategies.push_back(*strategy);
  }
  return strategies;
}

}  // namespace rlock::lab
