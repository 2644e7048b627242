// The registry of strategies: make_incrementer (incrementer.h), the one switch on lab::Strategy,
// each strategy's maker in a file of its own (strategies.h).
#include "strategy/incrementer.h"
#include "strategy/strategies.h"

namespace rlock::strategy {

std::unique_ptr<Incrementer> make_incrementer(const Setting& setting, Parts parts) {
  using lab::Strategy;
  switch (setting.strategy) {
    case Strategy::ttl: return make_ttl(setting, parts);
    case Strategy::watchdog: return make_watchdog(setting, parts);
    case Strategy::check_before_write: return make_check_before_write(setting, parts);
    case Strategy::redlock: return make_redlock(setting, parts);
    case Strategy::fenced: return make_fenced(setting, parts, FencedWrite::once);
    case Strategy::fenced_retry: return make_fenced(setting, parts, FencedWrite::retry);
    case Strategy::fenced_claim: return make_fenced(setting, parts, FencedWrite::claim);
    case Strategy::pg_atomic: return make_pg_atomic(setting, parts);
    case Strategy::pg_row_lock: return make_pg_locked(setting, parts, bank::AccountStore::TxLock::row);
    case Strategy::pg_advisory: return make_pg_locked(setting, parts, bank::AccountStore::TxLock::advisory);
  }
  throw UsageError("unknown strategy");
}

}  // namespace rlock::strategy
