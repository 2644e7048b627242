// The generator's replay guarantee: seed 2026 yields the schedules written in
// testdata/schedule-seed2026.txt, whatever the compiler or standard library. A change to the
// generator that changes a schedule must rewrite the file on purpose:
//   RLOCK_UPDATE_GOLDEN=1 build/src/chaos/schedule_test
#include "chaos/generator.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include <fmt/format.h>

namespace rlock::chaos {

using lab::Strategy;

namespace {

const char* const kGolden = RLOCK_TESTDATA "/schedule-seed2026.txt";

// What the trial's fault drew for itself under `name`; 0 when it drew nothing of that name.
double own_draw(const TrialSpec& spec, const Schedule& s, std::string_view name) {
  for (auto [drawn, value] : spec.fault->own_draws(s)) {
    if (drawn == name) return value;
  }
  return 0;
}

std::string describe(const TrialSpec& spec, const Schedule& s) {
  std::string line = fmt::format("{} {} {}: target {} pause {:.6f} strike {:.6f} lag {:.6f}", to_string(spec.strategy),
                                 to_string(spec.fault), spec.number, s.target, s.pause_s,
                                 own_draw(spec, s, "strike_after_s"), own_draw(spec, s, "replica_lag_s"));
  std::vector<double> latency;  // net-delay's, a value a worker
  for (auto [drawn, value] : spec.fault->own_draws(s)) {
    if (drawn == "latency_ms") latency.push_back(value);
  }
  latency.resize(s.workers.size());
  for (std::size_t i = 0; i < s.workers.size(); ++i) {
    const lab::WorkerPlan& w = s.workers[i];
    line += fmt::format(" | {} +{} at {:.6f} for {:.6f} hold {:.6f} latency {:.3f}", w.name, w.amount, w.delay_seconds,
                        w.work_seconds, w.hold_seconds, latency[i]);
  }
  return line + "\n";
}

// The first trials of a few strategy x fault cells, with the default TTL.
std::string first_trials() {
  ChaosSetup setup;
  setup.seed = 2026;
  std::string text;
  for (auto [strategy, fault] : {std::pair{Strategy::ttl, fault_named("none")},
                                 {Strategy::fenced_retry, fault_named("pause")},
                                 {Strategy::fenced_claim, fault_named("pause")},
                                 {Strategy::ttl, fault_named("slow")},
                                 {Strategy::redlock, fault_named("failover")},
                                 {Strategy::ttl, fault_named("redis-restart")},
                                 {Strategy::watchdog, fault_named("kill")},
                                 {Strategy::ttl, fault_named("failover")},
                                 {Strategy::watchdog, fault_named("partition")},
                                 {Strategy::ttl, fault_named("net-delay")},
                                 {Strategy::ttl, fault_named("pause-waiter")},
                                 {Strategy::watchdog, fault_named("conn-drop")},
                                 {Strategy::ttl, fault_named("session-expiry")},
                                 {Strategy::watchdog, fault_named("starved-renewal")}}) {
    for (int n = 0; n < 5; ++n) {
      TrialSpec spec{strategy, fault, n, std::nullopt};
      text += describe(spec, schedule_for(spec, setup));
    }
  }
  return text;
}

TEST(Schedule, SeedReplaysTheGoldenSchedules) {
  std::string actual = first_trials();
  if (std::getenv("RLOCK_UPDATE_GOLDEN")) std::ofstream(kGolden) << actual;
  std::ifstream in(kGolden);
  ASSERT_TRUE(in) << "missing " << kGolden;
  std::stringstream golden;
  golden << in.rdbuf();
  EXPECT_EQ(actual, golden.str()) << "seed 2026 no longer replays the same schedules";
}

TEST(Schedule, OneTrialDependsOnlyOnItsSeedStrategyFaultAndNumber) {
  ChaosSetup setup;
  setup.seed = 7;
  TrialSpec spec{Strategy::fenced_claim, fault_named("pause"), 3, std::nullopt};
  EXPECT_EQ(describe(spec, schedule_for(spec, setup)), describe(spec, schedule_for(spec, setup)));
  ChaosSetup other = setup;
  other.seed = 8;
  EXPECT_NE(describe(spec, schedule_for(spec, setup)), describe(spec, schedule_for(spec, other)));
}

TEST(Schedule, OnlyClockSkewSkewsTheTargetsClockAndAsOftenSlowAsFast) {
  ChaosSetup setup;
  setup.seed = 2026;
  int slow = 0;
  for (int n = 0; n < 200; ++n) {
    Fault skew = fault_named("clock-skew"), slow_fault = fault_named("slow");
    double rate = skew->target_clock_rate(schedule_for(TrialSpec{Strategy::redlock, skew, n, std::nullopt}, setup));
    EXPECT_GE(rate, 0.5);
    EXPECT_LE(rate, 2.0);
    slow += rate < 1;
    EXPECT_EQ(
        slow_fault->target_clock_rate(schedule_for(TrialSpec{Strategy::redlock, slow_fault, n, std::nullopt}, setup)),
        1);
  }
  EXPECT_GT(slow, 70);
  EXPECT_LT(slow, 130);
}

}  // namespace
}  // namespace rlock::chaos
