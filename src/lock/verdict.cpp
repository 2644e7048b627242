#include "verdict.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace rlock {

Verdict judge(long long balance, long long expected, const std::vector<Event>& events) {
  Verdict verdict{balance, expected, 0, 0, {}};
  for (const Event& event : events) {
    if (event.kind != EventKind::error || event.fields.value("added", true)) continue;
    long long amount = event.fields.value("amount", 0LL);
    if (event.fields.value("in_doubt", false)) {
      verdict.in_doubt += amount;
    } else {
      verdict.not_acknowledged += amount;
      verdict.failed.push_back(fmt::format("{}'s {}", event.who, amount));
    }
  }
  return verdict;
}

long long Verdict::missing() const {
  long long most = expected - not_acknowledged;
  long long least = most - in_doubt;
  if (balance < least) return least - balance;
  if (balance > most) return most - balance;
  return 0;
}

std::string Verdict::line() const {
  std::string head = fmt::format("verdict: final balance {}, expected {}", balance, expected);
  if (balance == expected) return head + ": no update lost";
  if (!lost_update()) {
    std::string why = failed.empty() ? "" : fmt::format("{} not added: the worker failed and said so", fmt::join(failed, ", "));
    if (in_doubt > 0) why += fmt::format("{}{} in doubt: the write's answer was lost", why.empty() ? "" : "; ", in_doubt);
    return fmt::format("{}: no update lost ({})", head, why);
  }
  if (missing() < 0) return fmt::format("{}: WRONG BALANCE ({} more than every amount once)", head, -missing());
  return fmt::format("{}: LOST UPDATE ({} missing)", head, missing());
}

}  // namespace rlock
