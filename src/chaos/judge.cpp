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
  TrialResult result{input.spec, {}, {}, {}, 0, 0, input.ms, input.error, input.client_error, input.not_run};
  if (!input.error.empty() || input.not_run) return result;
  const std::vector<Operation>& history = input.history;
  if (input.client_error.empty()) {
    result.lost = input.served ? stale_writes_check(*input.served) : guarded([&] {
      if (!input.final_balance) throw Error(input.balance_error);
      return check_lost_updates(AccountStore::kInitialBalance, *input.final_balance, history);
    });
    result.overlaps = guarded([&] { return check_overlaps(history); });
    result.fences = guarded([&] { return check_fences(history); });
  }
  for (const Operation& op : history) {
    if (op.outcome != Outcome::fail) continue;
    ++result.failed_ops;
    result.failed_amount += op.amount;
  }
  return result;
}

}  // namespace rlock
