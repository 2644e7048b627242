#include "checker/judge.h"

#include <algorithm>
#include <limits>

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

// A history's figures: each loss counted against the strike before it, progress after the last heal.
void history_figures(const TrialInput& input, TrialResult& r) {
  const std::vector<Operation>& ops = input.history;
  r.history = std::any_of(ops.begin(), ops.end(), [](const Operation& op) { return op.invoked_at.has_value(); });
  if (!r.history) return;
  r.increments = static_cast<int>(ops.size());
  r.faults_struck = static_cast<int>(input.strikes.size());
  std::vector<double> losses = input.served ? input.served->stale_write_times : std::vector<double>{};
  if (input.served) r.lost_increments = input.served->lost_increments;
  double last_heal = 0;
  for (std::size_t i = 0; i < input.strikes.size(); ++i) {
    double from = input.strikes[i].at;
    double until = i + 1 < input.strikes.size() ? input.strikes[i + 1].at : std::numeric_limits<double>::infinity();
    r.faults_followed_by_loss +=
        std::any_of(losses.begin(), losses.end(), [&](double t) { return t >= from && t < until; });
    last_heal = std::max(last_heal, input.strikes[i].healed_at);
  }
  for (const Operation& op : ops) {
    if (!op.invoked_at || *op.invoked_at < last_heal) continue;
    ++r.started_after_heal;
    r.ok_after_heal += op.outcome == Outcome::ok;
  }
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
  history_figures(input, result);
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
