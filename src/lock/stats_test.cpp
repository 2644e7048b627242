// The statistics on known inputs.
#include "stats.h"

#include <gtest/gtest.h>

namespace rlock {
namespace {

TEST(Wilson, KnownIntervals) {
  auto [low, high] = wilson_interval(0, 20);
  EXPECT_DOUBLE_EQ(low, 0.0);
  EXPECT_NEAR(high, 0.1611, 1e-4);
  std::tie(low, high) = wilson_interval(20, 20);
  EXPECT_NEAR(low, 0.8389, 1e-4);
  EXPECT_DOUBLE_EQ(high, 1.0);
  std::tie(low, high) = wilson_interval(10, 20);
  EXPECT_NEAR(low, 0.2993, 1e-4);
  EXPECT_NEAR(high, 0.7007, 1e-4);
}

TEST(Wilson, NoTrialsIsEmpty) { EXPECT_EQ(wilson_interval(0, 0), std::make_pair(0.0, 0.0)); }

TEST(Median, OddEvenAndEmpty) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median({}), 0);
}

}  // namespace
}  // namespace rlock
