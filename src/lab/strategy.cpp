#include "lab/strategy.h"

#include "util/enum_names.h"

namespace rlock::lab {
namespace {

constexpr util::NameTable<Strategy, 10> kStrategies{{
    {Strategy::ttl, "ttl"},
    {Strategy::watchdog, "watchdog"},
    {Strategy::check_before_write, "check-before-write"},
    {Strategy::redlock, "redlock"},
    {Strategy::fenced, "fenced"},
    {Strategy::fenced_retry, "fenced-retry"},
    {Strategy::fenced_claim, "fenced-claim"},
    {Strategy::pg_atomic, "pg-atomic"},
    {Strategy::pg_row_lock, "pg-row-lock"},
    {Strategy::pg_advisory, "pg-advisory"},
}};

}  // namespace

std::string_view to_string(Strategy strategy) { return util::name_in(kStrategies, strategy); }
std::optional<Strategy> strategy_from(std::string_view name) { return util::value_in(kStrategies, name); }

const std::vector<Strategy>& all_strategies() {
  static const std::vector<Strategy> all = util::values_in(kStrategies);
  return all;
}

bool takes_fence(Strategy strategy) {
  return strategy == Strategy::fenced || strategy == Strategy::fenced_retry || strategy == Strategy::fenced_claim;
}

bool retries_rejected_write(Strategy strategy) {
  return strategy == Strategy::fenced_retry || strategy == Strategy::fenced_claim;
}

bool in_postgres(Strategy strategy) {
  return strategy == Strategy::pg_atomic || strategy == Strategy::pg_row_lock || strategy == Strategy::pg_advisory;
}

int lock_servers(Strategy strategy) {
  if (in_postgres(strategy)) return 0;
  return strategy == Strategy::redlock ? 3 : 1;
}

bool renews_lease(Strategy strategy) { return strategy == Strategy::watchdog; }

bool checks_before_write(Strategy strategy) { return strategy == Strategy::check_before_write; }

bool holds_lock(Strategy strategy) { return strategy != Strategy::pg_atomic; }

bool decided_at_resource(Strategy strategy) { return strategy == Strategy::fenced_claim || in_postgres(strategy); }

int account_statements(Strategy strategy) {
  switch (strategy) {
    case Strategy::pg_atomic: return 1;
    case Strategy::pg_row_lock: return 4;
    case Strategy::pg_advisory: return 5;
    default: return 2;
  }
}

}  // namespace rlock::lab
