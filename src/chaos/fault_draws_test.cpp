// A fault's own parameters are drawn and kept in its own file: the schedule carries them as a value of
// that file's type, and the fault alone reads them back (FaultModel::own_draws names them).
#include <gtest/gtest.h>

#include "chaos/generator.h"

namespace rlock::chaos {
namespace {

Schedule drawn(const char* fault, int number) {
  ChaosSetup setup;
  setup.seed = 2026;
  return schedule_for(TrialSpec{lab::Strategy::ttl, fault_named(fault), number, std::nullopt}, setup);
}

TEST(FaultDraws, PauseLateStopsTheTargetWithinItsWorkByADelayOfItsOwn) {
  Fault late = fault_named("pause-late");
  int early = 0;
  for (int n = 0; n < 100; ++n) {
    Schedule s = drawn("pause-late", n);
    auto own = late->own_draws(s);
    ASSERT_EQ(own.size(), 1u);
    EXPECT_EQ(own[0].first, "pause_after_s");
    EXPECT_EQ(own[0].second, late->strike_after_s(s));
    EXPECT_GE(late->strike_after_s(s), 0);
    EXPECT_LE(late->strike_after_s(s), s.workers[s.target].work_seconds);
    early += late->strike_after_s(s) < s.workers[s.target].work_seconds / 2;
  }
  EXPECT_GT(early, 30);  // drawn across the whole work, not pinned to one end
  EXPECT_LT(early, 70);
}

TEST(FaultDraws, AFaultThatDrawsNothingOfItsOwnKeepsNothing) {
  for (const char* fault : {"none", "pause", "slow", "partition"}) {
    Schedule s = drawn(fault, 0);
    EXPECT_FALSE(s.fault_draws.has_value()) << fault;
    EXPECT_TRUE(fault_named(fault)->own_draws(s).empty()) << fault;
    EXPECT_EQ(fault_named(fault)->target_clock_rate(s), 1) << fault;
  }
}

TEST(FaultDraws, AScheduleMadeByHandReadsAsNothingDrawn) {
  Schedule by_hand;
  by_hand.workers.push_back(lab::WorkerPlan{.name = "A", .amount = 1, .delay_seconds = 0, .work_seconds = 0.1});
  EXPECT_EQ(fault_named("kill")->strike_after_s(by_hand), 0);
  EXPECT_EQ(fault_named("clock-skew")->target_clock_rate(by_hand), 1);
  EXPECT_EQ(fault_named("pause-late")->strike_after_s(by_hand), 0);
}

}  // namespace
}  // namespace rlock::chaos
