#include "lab/verdict.h"

#include <fmt/format.h>

namespace rlock::lab {
namespace {

constexpr Wording kHead{"head", "verdict: final balance {balance}, expected {expected}",
                        "판정: 최종 잔액 {balance}, 기대 잔액 {expected}"};
constexpr Wording kNoneLost{"none_lost", "no update lost", "잃어버린 갱신 없음"};
constexpr Wording kFailed{"failed", "{who}'s {amount}", "{who}의 {amount}"};
constexpr Wording kFailedWhy{"failed_why", "{failed} not added: the worker failed and said so",
                             "{failed} 더해지지 않음: 작업자가 실패를 알림"};
constexpr Wording kInDoubt{"in_doubt", "{amount} in doubt: the write's answer was lost",
                           "{amount} 불확실: 쓰기의 응답을 잃음"};
constexpr Wording kWrong{"wrong", "WRONG BALANCE ({amount} more than every amount once)",
                         "잘못된 잔액 (모든 금액을 한 번씩 더한 것보다 {amount} 많음)"};
constexpr Wording kLost{"lost", "LOST UPDATE ({amount} missing)", "갱신 손실 ({amount} 사라짐)"};

}  // namespace

BalanceVerdict balance_verdict(long long balance, long long expected, const std::vector<Event>& events) {
  BalanceVerdict verdict{balance, expected, 0, 0, {}};
  for (const Event& event : events) {
    if (event.kind != EventKind::error || event.added().value_or(true)) continue;
    long long amount = event.amount().value_or(0);
    if (event.in_doubt().value_or(false)) {
      verdict.in_doubt += amount;
    } else {
      verdict.not_acknowledged += amount;
      verdict.failed.push_back({event.who, amount});
    }
  }
  return verdict;
}

long long BalanceBounds::missing(long long balance) const {
  if (balance < least) return least - balance;
  if (balance > most) return most - balance;
  return 0;
}

long long BalanceVerdict::missing() const {
  long long most = expected - not_acknowledged;
  return BalanceBounds{most - in_doubt, most}.missing(balance);
}

std::string BalanceVerdict::line(Lang lang) const {
  std::string head = fill_wording(kHead, lang, {{"balance", balance}, {"expected", expected}}) + ": ";
  if (balance == expected) return head + fill_wording(kNoneLost, lang, {});
  if (!lost_update()) {
    std::string who;
    for (const Failed& f : failed) {
      who += (who.empty() ? "" : ", ") + fill_wording(kFailed, lang, {{"who", f.who}, {"amount", f.amount}});
    }
    std::string why = who.empty() ? "" : fill_wording(kFailedWhy, lang, {{"failed", who}});
    if (in_doubt > 0) why += (why.empty() ? "" : "; ") + fill_wording(kInDoubt, lang, {{"amount", in_doubt}});
    return fmt::format("{}{} ({})", head, fill_wording(kNoneLost, lang, {}), why);
  }
  if (missing() < 0) return head + fill_wording(kWrong, lang, {{"amount", -missing()}});
  return head + fill_wording(kLost, lang, {{"amount", missing()}});
}

}  // namespace rlock::lab
