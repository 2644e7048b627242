#include "util/nearest_name.h"

#include <gtest/gtest.h>

namespace rlock::util {

const std::vector<std::string> kNames{"reset", "worker", "chaos", "bench", "analyze", "report", "redis"};

TEST(NearestName, ATypoFindsTheName) {
  EXPECT_EQ(nearest_name("chaso", kNames), "chaos");
  EXPECT_EQ(nearest_name("benhc", kNames), "bench");
  EXPECT_EQ(nearest_name("analyse", kNames), "analyze");
}

TEST(NearestName, AWordUnlikeAnyNameSuggestsNothing) {
  EXPECT_EQ(nearest_name("frobnicate", kNames), "");
  EXPECT_EQ(nearest_name("x", {}), "");
}

}  // namespace rlock::util
