// The statistics on known inputs.
#include "util/stats.h"

#include <gtest/gtest.h>

#include <vector>

namespace rlock::util {
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

// k of n and n - k of n are mirror images, and each interval holds its observed rate (to rounding:
// 0 of 200 gives a lower bound of 1.7e-18, not 0).
TEST(Wilson, IsSymmetricAndHoldsTheObservedRate) {
  for (long k : {0L, 1L, 3L, 12L, 199L, 200L}) {
    auto [low, high] = wilson_interval(k, 200);
    auto [mirror_low, mirror_high] = wilson_interval(200 - k, 200);
    EXPECT_NEAR(low, 1 - mirror_high, 1e-12) << k;
    EXPECT_NEAR(high, 1 - mirror_low, 1e-12) << k;
    EXPECT_LE(low, static_cast<double>(k) / 200 + 1e-12);
    EXPECT_GE(high, static_cast<double>(k) / 200 - 1e-12);
  }
}

TEST(Median, OddEvenAndEmpty) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median({}), 0);
  EXPECT_DOUBLE_EQ(median({-4.5}), -4.5);
  EXPECT_DOUBLE_EQ(median({9, 9, 1, 9}), 9);
}

TEST(Percentile, NearestRank) {
  std::vector<double> hundred;
  for (int i = 100; i >= 1; --i) hundred.push_back(i);  // unsorted on purpose
  EXPECT_DOUBLE_EQ(percentile(hundred, 0.99), 99);
  EXPECT_DOUBLE_EQ(percentile(hundred, 0.5), 50);
  EXPECT_DOUBLE_EQ(percentile(hundred, 1.0), 100);
  EXPECT_DOUBLE_EQ(percentile({7}, 0.99), 7);
  EXPECT_DOUBLE_EQ(percentile({1, 2, 3}, 0.99), 3);  // fewer than 100 values: p99 is the largest
  EXPECT_DOUBLE_EQ(percentile({}, 0.99), 0);
  EXPECT_DOUBLE_EQ(percentile(hundred, 0.001), 1);  // the smallest rank is the smallest value
}

TEST(Jain, EqualSharesAreFair) { EXPECT_DOUBLE_EQ(jain_index({5, 5, 5, 5}), 1.0); }

TEST(Jain, OneClientTakingAllIsOneOverN) { EXPECT_DOUBLE_EQ(jain_index({0, 0, 12, 0}), 0.25); }

TEST(Jain, KnownMixAndEmpty) {
  EXPECT_DOUBLE_EQ(jain_index({1, 3}), 16.0 / 20.0);  // (1+3)^2 / (2 * (1+9))
  EXPECT_DOUBLE_EQ(jain_index({}), 0);
  EXPECT_DOUBLE_EQ(jain_index({0, 0}), 0);
}

}  // namespace
}  // namespace rlock::util

namespace rlock::util {
namespace {

// Exact values, computed with fractions (scipy.stats.fisher_exact gives the same).
TEST(Fisher, KnownTwoSidedPValues) {
  EXPECT_NEAR(fisher_exact_p(6, 2, 1, 4), 4.0 / 39, 1e-12);   // scipy's documented example
  EXPECT_NEAR(fisher_exact_p(3, 1, 1, 3), 17.0 / 35, 1e-12);  // Fisher's tea tasting
  EXPECT_NEAR(fisher_exact_p(8, 2, 1, 5), 5.0 / 143, 1e-12);
  EXPECT_NEAR(fisher_exact_p(5, 195, 0, 200), 1379.0 / 22629, 1e-12);
  EXPECT_NEAR(fisher_exact_p(12, 188, 0, 200), 257451192.0 / 624906802747, 1e-12);
}

TEST(Fisher, EqualOrEmptyTablesGiveOne) {
  EXPECT_DOUBLE_EQ(fisher_exact_p(0, 200, 0, 200), 1.0);
  EXPECT_DOUBLE_EQ(fisher_exact_p(1, 0, 0, 1), 1.0);
  EXPECT_DOUBLE_EQ(fisher_exact_p(0, 0, 0, 0), 1.0);
}

TEST(Fisher, IsSymmetricInTheTwoRows) {
  EXPECT_DOUBLE_EQ(fisher_exact_p(12, 188, 0, 200), fisher_exact_p(0, 200, 12, 188));
}

}  // namespace
}  // namespace rlock::util
