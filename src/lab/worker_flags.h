// The flags of `rlock worker` that name its strategy (--watchdog, --check-before-write, --fenced,
// --retry, --claim-fence, --pg KIND, --redlock URL,URL,URL), in both directions: written for the
// workers chaos starts (strategy_args), bound and read back by the worker's command line
// (add_strategy_flags, strategy_of). One place for both, so that every strategy goes out and comes
// back the same (worker_flags_test). Pure functions and a binding; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lab/strategy.h"
#include "rlock/redis_address.h"

namespace CLI {
class App;
}

namespace rlock::lab {

// The strategy's flags as the command line gave them.
struct StrategyFlags {
  bool watchdog = false;
  bool check_before_write = false;
  bool fenced = false;
  bool retry = false;
  bool claim_fence = false;
  std::optional<Strategy> pg;        // --pg atomic|row-lock|advisory
  std::vector<std::string> redlock;  // --redlock's URLs
};

// Binds the flags to `cmd`, with the combinations the parser refuses itself: --retry and
// --claim-fence need --fenced; --pg and --redlock exclude the Redis lock's strategies and each other.
void add_strategy_flags(CLI::App& cmd, StrategyFlags& flags);

// The strategy the flags name, the one place flags become a Strategy. Throws UsageError for a
// combination that names none (two of --watchdog, --check-before-write and --fenced; --claim-fence
// without --retry).
Strategy strategy_of(const StrategyFlags& flags);

// The flags that name `strategy`; redlock's carry its servers.
std::vector<std::string> strategy_args(Strategy strategy, const std::vector<RedisAddress>& redlock);

}  // namespace rlock::lab
