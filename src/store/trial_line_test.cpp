#include "store/trial_line.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace rlock::store {
namespace {

using nlohmann::json;

// A stored trial of ttl under none, written by the real writer, then read back.
json written_line() {
  checker::TrialInput input(chaos::TrialSpec{lab::Strategy::ttl, chaos::fault_named("none"), 3, std::nullopt});
  input.history.push_back(checker::Operation{"A", 30, checker::Outcome::ok, {checker::Section{0.1, 0.2, true, 7}}});
  input.final_balance = 130;
  return trial_line(input);
}

TEST(TrialLine, WhatTheWriterWritesReadsBack) {
  json line = written_line();
  checker::TrialInput back =
      trial_input_from(line, chaos::TrialSpec{lab::Strategy::ttl, chaos::fault_named("none"), 3, std::nullopt});
  ASSERT_EQ(back.history.size(), 1u);
  EXPECT_EQ(back.history[0].amount, 30);
  EXPECT_EQ(back.history[0].sections[0].fence, 7);
  EXPECT_EQ(back.final_balance, 130);
}

// Found by fuzz/trial_line: a float where an integer belongs was converted, which is undefined
// for one out of range; it is a malformed line (json::exception, or Error naming the operation).
TEST(TrialLine, AFloatWhereAnIntegerBelongsIsMalformed) {
  chaos::TrialSpec spec{lab::Strategy::ttl, chaos::fault_named("none"), 3, std::nullopt};
  for (const char* pointer : {"/balance", "/number", "/history/0/value", "/history/0/sections/0/fence"}) {
    json line = written_line();
    line[json::json_pointer(pointer)] = 7.31845e+21;
    EXPECT_ANY_THROW({
      trial_key_of(line);
      trial_input_from(line, spec);
    }) << pointer;
  }
}

}  // namespace
}  // namespace rlock::store
