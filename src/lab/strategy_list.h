// The strategy list of the command line (`--strategies LIST`), one rule set for chaos and bench:
// no list at all gives the command's default; `none`, or an empty list (`--strategies ''`), alone,
// gives no strategy (a run of protocol clients, or of bench's cases, alone); otherwise each item
// is a strategy's name (strategy.h), each named once. Pure function; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lab/strategy.h"

namespace rlock::lab {

// `names` as the option gathered them (split at commas). Throws UsageError, in one line naming the
// item, for an unknown name (the known ones listed), a name given twice, and `none` or an empty
// item beside others.
std::vector<Strategy> parse_strategy_list(const std::vector<std::string>& names,
                                          const std::vector<Strategy>& by_default);

// The same for a command that runs only the strategies `runs`, whose flag is `flag` ("--strategy"):
// the errors name that flag, and a name outside `runs` is refused listing `runs` alone.
std::vector<Strategy> parse_strategy_list(const std::vector<std::string>& names,
                                          const std::vector<Strategy>& by_default, std::string_view flag,
                                          const std::vector<Strategy>& runs);

// Whether one of `strategies` locks on three Redis servers (redlock), which a run must then give it.
bool any_on_three_servers(const std::vector<Strategy>& strategies);

}  // namespace rlock::lab
