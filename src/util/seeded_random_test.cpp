// The seeded generator against SplitMix64's published outputs, and its mappings' ranges.
#include "util/seeded_random.h"

#include <gtest/gtest.h>

#include <set>

namespace rlock::util {
namespace {

TEST(SeededRandom, MatchesSplitMix64ReferenceOutputs) {
  SeededRandom zero(0);
  EXPECT_EQ(zero.next(), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(zero.next(), 0x6e789e6aa1b965f4ULL);
  SeededRandom other(1234567);
  EXPECT_EQ(other.next(), 6457827717110365317ULL);
  EXPECT_EQ(other.next(), 3203168211198807973ULL);
}

TEST(SeededRandom, IntegersCoverTheirRangeAndNoMore) {
  SeededRandom random(2026);
  std::set<long long> seen;
  for (int i = 0; i < 1000; ++i) {
    long long x = random.integer(2, 4);
    ASSERT_GE(x, 2);
    ASSERT_LE(x, 4);
    seen.insert(x);
  }
  EXPECT_EQ(seen.size(), 3u);
  EXPECT_EQ(random.integer(7, 7), 7);
}

TEST(SeededRandom, RealsStayInTheirHalfOpenRange) {
  SeededRandom random(2026);
  double low = 1, high = 0;
  for (int i = 0; i < 1000; ++i) {
    double x = random.real(0.5, 0.8);
    ASSERT_GE(x, 0.5);
    ASSERT_LT(x, 0.8);
    low = std::min(low, x), high = std::max(high, x);
  }
  EXPECT_LT(low, 0.52);
  EXPECT_GT(high, 0.78);
}

}  // namespace
}  // namespace rlock::util
