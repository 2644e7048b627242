#include "lab/worker_flags.h"

#include <map>

#include <CLI/CLI.hpp>

#include "rlock/error.h"
#include "util/option_checks.h"

namespace rlock::lab {
namespace {

const std::map<std::string, Strategy>& pg_kinds() {
  static const std::map<std::string, Strategy> kinds{
      {"atomic", Strategy::pg_atomic}, {"row-lock", Strategy::pg_row_lock}, {"advisory", Strategy::pg_advisory}};
  return kinds;
}

}  // namespace

void add_strategy_flags(CLI::App& cmd, StrategyFlags& flags) {
  CLI::Option* watchdog = cmd.add_flag("--watchdog", flags.watchdog, "extend the lock every TTL/3 from a thread");
  CLI::Option* fenced = cmd.add_flag("--fenced", flags.fenced, "take a fencing token; PostgreSQL rejects stale writes");
  cmd.add_flag("--retry", flags.retry, "after a rejected fenced write, start again from the acquisition")
      ->needs(fenced);
  cmd.add_flag("--claim-fence", flags.claim_fence,
               "claim the fencing token at the read (SET fence), write only while it is still ours")
      ->needs(fenced);
  CLI::Option* check =
      cmd.add_flag("--check-before-write", flags.check_before_write,
                   "check the lock is still held right after the read (the pause falls after the check)");
  CLI::Option* pg =
      cmd.add_option("--pg", flags.pg, "no Redis: add in PostgreSQL (atomic UPDATE, row lock, advisory lock)")
          ->transform(util::by_name(pg_kinds()))
          ->type_name(util::names_of(pg_kinds()))
          ->excludes(fenced)
          ->excludes(watchdog)
          ->excludes(check);
  cmd.add_option("--redlock", flags.redlock,
                 "comma-separated URLs of 3 or more independent Redis servers: Redlock instead of --redis")
      ->delimiter(',')
      ->excludes(fenced)
      ->excludes(watchdog)
      ->excludes(check)
      ->excludes(pg);
}

Strategy strategy_of(const StrategyFlags& f) {
  if (f.pg) return *f.pg;
  if (!f.redlock.empty()) return Strategy::redlock;
  if (int{f.watchdog} + int{f.check_before_write} + int{f.fenced} > 1) {
    throw UsageError("--watchdog, --check-before-write and --fenced are strategies of their own: take one");
  }
  if (f.watchdog) return Strategy::watchdog;
  if (f.check_before_write) return Strategy::check_before_write;
  if (!f.fenced) return Strategy::ttl;
  if (f.claim_fence && !f.retry) throw UsageError("--claim-fence goes with --retry (the strategy fenced-claim)");
  if (f.claim_fence) return Strategy::fenced_claim;
  return f.retry ? Strategy::fenced_retry : Strategy::fenced;
}

std::vector<std::string> strategy_args(Strategy strategy, const std::vector<RedisAddress>& redlock) {
  switch (strategy) {
    case Strategy::ttl: return {};
    case Strategy::watchdog: return {"--watchdog"};
    case Strategy::check_before_write: return {"--check-before-write"};
    case Strategy::fenced: return {"--fenced"};
    case Strategy::fenced_retry: return {"--fenced", "--retry"};
    case Strategy::fenced_claim: return {"--fenced", "--retry", "--claim-fence"};
    case Strategy::pg_atomic: return {"--pg", "atomic"};
    case Strategy::pg_row_lock: return {"--pg", "row-lock"};
    case Strategy::pg_advisory: return {"--pg", "advisory"};
    case Strategy::redlock: break;
  }
  std::string urls;
  for (const RedisAddress& server : redlock) urls += (urls.empty() ? "" : ",") + server.url();
  return {"--redlock", urls};
}

}  // namespace rlock::lab
