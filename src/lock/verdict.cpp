#include "verdict.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace rlock {

Verdict judge(long long balance, long long expected, const std::vector<Event>& events) {
  Verdict verdict{balance, expected, 0, {}};
  for (const Event& event : events) {
    if (event.kind != EventKind::error || event.fields.value("added", true)) continue;
    long long amount = event.fields.value("amount", 0LL);
    verdict.not_acknowledged += amount;
    verdict.failed.push_back(fmt::format("{}'s {}", event.who, amount));
  }
  return verdict;
}

std::string Verdict::line() const {
  std::string head = fmt::format("verdict: final balance {}, expected {}", balance, expected);
  if (balance == expected) return head + ": no update lost";
  if (!lost_update()) {
    return fmt::format("{}: no update lost ({} not added: the worker failed and said so)", head,
                       fmt::join(failed, ", "));
  }
  if (missing() < 0) return fmt::format("{}: WRONG BALANCE ({} more than every amount once)", head, -missing());
  return fmt::format("{}: LOST UPDATE ({} missing)", head, missing());
}

}  // namespace rlock
