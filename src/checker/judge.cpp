#include "checker/judge.h"

#include <algorithm>

#include <fmt/format.h>

#include "bank/account_store.h"
#include "rlock/error.h"

namespace rlock::checker {
namespace {

CheckResult stale_writes_check(const ServedTally& account) {
  if (account.stale_writes == 0)
    return {Validity::valid, "every applied write was computed from the balance it overwrote", 0, 0};
  return {Validity::invalid,
          fmt::format("{} applied writes were computed from a stale balance, losing {}", account.stale_writes,
                      account.lost_money),
          account.lost_money, account.stale_writes};
}

// The balance must be the initial one plus each increment whose write was applied, less what stale
// writes lost (stale_writes_check): anything more was created, by writes applied twice.
CheckResult balance_check(const ServedTally& account) {
  if (!account.balance || !account.expected_balance) return {Validity::unknown, "the balance was not kept", 0, 0};
  long long created = *account.balance - *account.expected_balance + account.lost_money;
  if (created == 0) return {Validity::valid, "the balance holds each increment with an applied write once", 0, 0};
  return {Validity::invalid,
          fmt::format("the balance ended at {}, {} more than each increment with an applied write adds once "
                      "({} writes applied again within their increment)",
                      *account.balance, created, account.repeated_writes),
          created, account.repeated_writes};
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
  // A client's error ends its trial, but what the harness served until then stands: a write it
  // applied or refused is judged whatever the client did next.
  bool served_a_write =
      std::any_of(history.begin(), history.end(), [](const Operation& op) { return !op.sections.empty(); });
  result.judged = input.client_error.empty() || served_a_write;
  if (result.judged) {
    if (input.served) result.balance = balance_check(*input.served);
    result.lost = input.served ? stale_writes_check(*input.served) : guarded([&] {
      if (!input.final_balance) throw Error(input.balance_error);
      return check_lost_updates(bank::AccountStore::kInitialBalance, *input.final_balance, history);
    });
    result.overlaps = guarded([&] { return check_overlaps(history); });
    result.fences = guarded([&] { return check_fences(history); });
  }
  if (input.served) result.unwritten_ops = input.served->unwritten;
  for (std::size_t i = 0; i < history.size(); ++i) {  // one operation a worker, in the exits' order
    if (i < input.stuck.size() && input.stuck[i]) {
      ++result.stuck_ops;
    } else if (history[i].outcome == Outcome::info) {
      ++result.unknown_ops;
    } else if (history[i].outcome == Outcome::fail) {
      ++result.failed_ops;
      result.failed_amount += history[i].amount;
    } else {
      ++result.ok_ops;
    }
  }
  return result;
}

}  // namespace rlock::checker
