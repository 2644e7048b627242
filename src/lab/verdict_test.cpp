// The verdict on hand-made runs: what counts as a lost update, and what does not.
#include "lab/verdict.h"

#include <gtest/gtest.h>

namespace rlock::lab {
namespace {

Event failure(const char* who, long long amount, bool added) {
  return Event{3.0, who, EventKind::error, {{"message", "Redis went away"}, {"amount", amount}, {"added", added}}};
}

TEST(BalanceVerdict, TheExpectedBalanceLosesNothing) {
  BalanceVerdict verdict = balance_verdict(180, 180, {});
  EXPECT_FALSE(verdict.lost_update());
  EXPECT_EQ(verdict.line(), "verdict: final balance 180, expected 180: no update lost");
}

TEST(BalanceVerdict, AMissingAcknowledgedAmountIsALostUpdate) {
  BalanceVerdict verdict = balance_verdict(130, 180, {});
  EXPECT_TRUE(verdict.lost_update());
  EXPECT_EQ(verdict.line(), "verdict: final balance 130, expected 180: LOST UPDATE (50 missing)");
}

TEST(BalanceVerdict, AWorkerThatFailedBeforeAddingIsNotALostUpdate) {
  BalanceVerdict verdict = balance_verdict(150, 180, {failure("A", 30, false)});
  EXPECT_FALSE(verdict.lost_update());
  EXPECT_EQ(
      verdict.line(),
      "verdict: final balance 150, expected 180: no update lost (A's 30 not added: the worker failed and said so)");
}

// A worker whose write landed before it failed (its release got no answer) still counts.
TEST(BalanceVerdict, AWorkerThatFailedAfterAddingStillCounts) {
  BalanceVerdict verdict = balance_verdict(150, 180, {failure("A", 30, true)});
  EXPECT_TRUE(verdict.lost_update());
  EXPECT_EQ(verdict.missing(), 30);
}

// A failure does not excuse somebody else's loss: B's 50 is still missing here.
TEST(BalanceVerdict, AFailureDoesNotHideAnotherLoss) {
  BalanceVerdict verdict = balance_verdict(100, 180, {failure("A", 30, false)});
  EXPECT_TRUE(verdict.lost_update());
  EXPECT_EQ(verdict.line(), "verdict: final balance 100, expected 180: LOST UPDATE (50 missing)");
}

// An amount in doubt may or may not be in the balance: both ends of the range lose nothing.
TEST(BalanceVerdict, AnAmountInDoubtMayBeThereOrNot) {
  Event doubt{3.0, "A", EventKind::error, {{"message", "lost"}, {"amount", 30}, {"added", false}, {"in_doubt", true}}};
  EXPECT_FALSE(balance_verdict(180, 180, {doubt}).lost_update());
  EXPECT_FALSE(balance_verdict(150, 180, {doubt}).lost_update());
  EXPECT_EQ(balance_verdict(150, 180, {doubt}).line(),
            "verdict: final balance 150, expected 180: no update lost (30 in doubt: the write's answer was lost)");
  EXPECT_EQ(balance_verdict(100, 180, {doubt}).missing(), 50);
}

TEST(BalanceVerdict, AnAmountAppliedTwiceIsAWrongBalance) {
  EXPECT_EQ(balance_verdict(230, 180, {}).line(),
            "verdict: final balance 230, expected 180: WRONG BALANCE (50 more than every amount once)");
}

TEST(BalanceVerdict, SpeaksKorean) {
  EXPECT_EQ(balance_verdict(130, 180, {}).line(Lang::ko), "판정: 최종 잔액 130, 기대 잔액 180: 갱신 손실 (50 사라짐)");
  EXPECT_EQ(balance_verdict(150, 180, {failure("A", 30, false)}).line(Lang::ko),
            "판정: 최종 잔액 150, 기대 잔액 180: "
            "잃어버린 갱신 없음 (A의 30 더해지지 않음: 작업자가 실패를 알림)");
}

}  // namespace
}  // namespace rlock::lab
