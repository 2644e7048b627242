// Patience, the clocks of an acquisition loop, on a clock the test sets: an unanswering server is
// given up only when it has left every attempt unanswered for the limit since its last answer.
#include "lock/patience.h"

#include <chrono>
#include <optional>

#include <gtest/gtest.h>

namespace rlock {
namespace {

using namespace std::chrono_literals;
using Clock = Patience::Clock;

const Clock::time_point kStart = Clock::now();

TEST(Patience, GivesUpOnlyAfterTheLimitOfSilence) {
  Patience patience(AcquirePolicy{.unanswered_limit = 500ms, .deadline = std::nullopt}, kStart);
  EXPECT_FALSE(patience.unanswered(kStart + 1s)) << "the first silence starts the count";
  EXPECT_FALSE(patience.unanswered(kStart + 1s + 500ms)) << "the limit itself is still within it";
  EXPECT_TRUE(patience.unanswered(kStart + 1s + 501ms));
}

// Regression: one silence long ago made the next silence give up at once.
TEST(Patience, AnAnswerRestartsTheCount) {
  Patience patience(AcquirePolicy{.unanswered_limit = 500ms, .deadline = std::nullopt}, kStart);
  EXPECT_FALSE(patience.unanswered(kStart));
  patience.answered();
  EXPECT_FALSE(patience.unanswered(kStart + 10s)) << "counted from the silence after the answer";
  EXPECT_FALSE(patience.unanswered(kStart + 10s + 400ms));
  EXPECT_TRUE(patience.unanswered(kStart + 10s + 600ms));
}

TEST(Patience, TheDeadlineCountsFromTheStart) {
  Patience bounded(AcquirePolicy{.deadline = 300ms}, kStart);
  EXPECT_EQ(bounded.deadline(), kStart + 300ms);
  EXPECT_FALSE(bounded.past_deadline(kStart + 299ms));
  EXPECT_TRUE(bounded.past_deadline(kStart + 300ms));
  Patience unbounded(AcquirePolicy{.deadline = std::nullopt}, kStart);
  EXPECT_EQ(unbounded.deadline(), Clock::time_point::max());
  EXPECT_FALSE(unbounded.past_deadline(kStart + 24h));
}

}  // namespace
}  // namespace rlock
