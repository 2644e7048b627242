#include "results/bench_file.h"

#include <gtest/gtest.h>

namespace rlock::results {
namespace {

BenchFile one_of_each() {
  BenchFile file;
  file.env = {{"redis", "7.0.15"}};
  file.cases.push_back(BenchFileCase{"cycle", 128, 72, 728, 61, 1.18, {{"clients", 4}}});
  file.strategies.push_back(BenchFileRow{"ttl", 16, 1, 400, 254, 908, 290, 0.88, 463.5, true, false, 0});
  return file;
}

TEST(BenchFile, RoundTripsThroughJson) {
  nlohmann::json j = to_json(one_of_each());
  EXPECT_EQ(j.at("format"), kBenchFileFormat);
  BenchFile back = bench_file_from(j);
  EXPECT_EQ(back.cases.at(0).extra, (nlohmann::json{{"clients", 4}}));
  EXPECT_EQ(to_json(back), j);
}

// The reader holds each field to the range its schema gives: a table is never drawn from a negative
// count, a median below zero or no clients at all.
TEST(BenchFile, RefusesFieldsOutOfTheirRange) {
  struct Bad {
    const char* list;
    const char* field;
    nlohmann::json value;
  };
  for (const Bad& bad : {Bad{"cases", "samples", -1}, Bad{"cases", "median_us", -0.5}, Bad{"cases", "ratio", -1},
                         Bad{"strategies", "clients", 0}, Bad{"strategies", "accounts", -3},
                         Bad{"strategies", "increments", -1}, Bad{"strategies", "throughput_per_s", -2.0},
                         Bad{"strategies", "failed", -1}, Bad{"strategies", "p99_us", "fast"}}) {
    nlohmann::json j = to_json(one_of_each());
    j[bad.list][0][bad.field] = bad.value;
    EXPECT_THROW(bench_file_from(j), nlohmann::json::exception) << bad.list << "." << bad.field;
  }
}

}  // namespace
}  // namespace rlock::results
