// The trial's limit leaves room for the longest a correct trial needs, whatever the TTL: a holder
// paused for its drawn pause still gets to write before its trial ends.
#include "chaos/trial_loop.h"

#include <gtest/gtest.h>

#include "chaos/generator.h"

namespace rlock::chaos {
namespace {

using namespace std::chrono_literals;

TEST(TrialLimit, ShortTtlsKeepTheFloor) {
  ChaosSetup setup;
  setup.seed = 7;
  for (int number = 0; number < 50; ++number) {
    Schedule schedule = schedule_for(TrialSpec{lab::Strategy::ttl, fault_named("pause"), number, std::nullopt}, setup);
    EXPECT_EQ(trial_limit(*fault_named("pause"), schedule, setup.ttl), TrialClock::duration(kTrialFloor));
  }
}

TEST(TrialLimit, CoversTheLongestPauseAndTheLockWaitsAtLongTtls) {
  ChaosSetup setup;
  setup.seed = 7;
  for (auto ttl : {5000ms, 60000ms}) {
    setup.ttl = ttl;
    for (const char* fault : {"pause", "slow", "clock-skew", "net-delay"}) {
      for (int number = 0; number < 50; ++number) {
        Schedule schedule =
            schedule_for(TrialSpec{lab::Strategy::ttl, fault_named(fault), number, std::nullopt}, setup);
        double needed = schedule.pause_s + 2 * std::chrono::duration<double>(ttl).count();
        for (const lab::WorkerPlan& w : schedule.workers) needed += w.work_seconds;
        EXPECT_GT(trial_limit(*fault_named(fault), schedule, ttl), seconds_of(needed)) << fault << " " << number;
      }
    }
  }
}

}  // namespace
}  // namespace rlock::chaos
