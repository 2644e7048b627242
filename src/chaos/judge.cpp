#include "chaos/judge.h"

#include <fmt/format.h>

#include "bank/account_store.h"
#include "rlock/error.h"

namespace rlock {
namespace {

CheckResult stale_writes_check(const ServedTally& account) {
  if (account.stale_writes == 0) return {Validity::valid, "every applied write was computed from the balance it overwrote", 0, 0};
  return {Validity::invalid,
          fmt::format("{} applied writes were computed from a stale balance, losing {}", account.stale_writes,
                      account.lost_money),
          account.lost_money, account.stale_writes};
}

}  // namespace

TrialResult judge(const TrialInput& input) {
  TrialResult result{.spec = input.spec,
                     .struck = input.struck,
                     .lock_reached_replica = input.lock_reached_replica,
                     .ms = input.ms,
                     .error = input.error,
                     .client_error = input.client_error,
                     .not_run = input.not_run || !input.error.empty()};
  if (result.not_run) return result;
  const std::vector<Operation>& history = input.history;
  if (input.client_error.empty()) {
    result.lost = input.served ? stale_writes_check(*input.served) : guarded([&] {
      if (!input.final_balance) throw Error(input.balance_error);
      return check_lost_updates(AccountStore::kInitialBalance, *input.final_balance, history);
    });
    result.overlaps = guarded([&] { return check_overlaps(history); });
    result.fences = guarded([&] { return check_fences(history); });
  }
  for (std::size_t i = 0; i < history.size(); ++i) {  // one operation a worker, in the exits' order
    if (i < input.stuck.size() && input.stuck[i]) {
      ++result.stuck_ops;
    } else if (history[i].outcome == Outcome::info) {
      ++result.unknown_ops;
    } else if (history[i].outcome == Outcome::fail) {
      ++result.failed_ops;
      result.failed_amount += history[i].amount;
    }
  }
  return result;
}

}  // namespace rlock
