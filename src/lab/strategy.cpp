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

}  // namespace rlock::lab
