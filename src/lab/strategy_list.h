// The strategy list of the command line (`--strategies LIST`), one rule set for chaos and bench:
// no list at all gives the command's default; `none`, or an empty list (`--strategies ''`), alone,
// gives no strategy (a run of protocol clients, or of bench's cases, alone); otherwise each item
// is a strategy's name (strategy.h), each named once. Pure function; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "lab/strategy.h"

namespace rlock::lab {

// `names` as the option gathered them (split at commas). Throws UsageError, in one line naming the
// item, for an unknown name (the known ones listed), a name given twice, and `none` or an empty
// item beside others.
std::vector<Strategy> parse_strategy_list(const std::vector<std::string>& names,
                                          const std::vector<Strategy>& by_default);

}  // namespace rlock::lab
