// A history's schedule as text (workload.h): what it reads, what it writes back, and the one line
// a wrong step gets; a workload's bounds.
#include <algorithm>

#include <gtest/gtest.h>

#include "chaos/workload.h"
#include "rlock/error.h"

namespace rlock::chaos {
namespace {

TEST(Workload, ReadsEachTriggerAndItsHeal) {
  NemesisSchedule s = parse_schedule(
      "pause:A on read#2 for 2ttl; lost-reply:B on release; kill at 1.5s; "
      "conn-drop every 300ms from 1ttl",
      3);
  ASSERT_EQ(s.steps.size(), 4u);
  EXPECT_EQ(to_string(s.steps[0].fault), "pause");
  EXPECT_EQ(s.steps[0].worker, "A");
  EXPECT_EQ(s.steps[0].trigger, Trigger::on_step);
  EXPECT_EQ(s.steps[0].step, "read");
  EXPECT_EQ(s.steps[0].increment, 2);
  ASSERT_TRUE(s.steps[0].heal_after);
  EXPECT_DOUBLE_EQ(s.steps[0].heal_after->seconds(0.5), 1.0);
  EXPECT_EQ(s.steps[1].increment, 0);  // the next one
  EXPECT_EQ(s.steps[2].trigger, Trigger::at);
  EXPECT_DOUBLE_EQ(s.steps[2].at.seconds(9), 1.5);
  EXPECT_EQ(s.steps[3].trigger, Trigger::every);
  EXPECT_DOUBLE_EQ(s.steps[3].every.seconds(1), 0.3);
  EXPECT_DOUBLE_EQ(s.steps[3].at.seconds(0.2), 0.2);
}

TEST(Workload, WritesBackWhatItReads) {
  for (const char* text : {"pause:A on read#2 for 2ttl", "kill at 1.5s; lost-reply:C on release#3",
                           "pause every 3ttl from 1ttl", "conn-drop"}) {
    NemesisSchedule s = parse_schedule(text, 3);
    EXPECT_EQ(parse_schedule(to_string(s), 3), s) << text;
  }
  EXPECT_EQ(to_string(parse_schedule("pause:A  on  read#2 ;; ", 2)), "pause:A on read#2");
}

TEST(Workload, AWrongStepIsOneUsageLineNamingIt) {
  auto refused = [](const char* text, int workers, const char* says) {
    try {
      parse_schedule(text, workers);
      ADD_FAILURE() << text << ": read";
    } catch (const UsageError& e) {
      std::string what = e.what();
      EXPECT_NE(what.find(says), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  };
  refused("pause on lunch", 3, "'lunch' is no step");
  refused("pause:D on read", 3, "worker 'D' is none of the history's 3");
  refused("nap:A at 1s", 3, "'nap' is no fault");
  refused("pause at soon", 3, "soon is no time");
  refused("pause at 1s every 2s", 3, "one of them");
  refused("pause on read#2", 3, "wants a worker");
  refused("pause on read#0", 3, "is no increment");
  refused("redis-restart at 1s", 3, "no history's operation");
  refused("", 3, "no step");
  refused("pause for", 3, "wants what follows it");
  std::string many;
  for (int i = 0; i <= static_cast<int>(kMaxScheduleSteps); ++i) many += "pause;";
  refused(many.c_str(), 3, "over 32 steps");
  refused(std::string(5000, 'x').c_str(), 3, "over 4096 bytes");
}

TEST(Workload, ChecksItsBounds) {
  EXPECT_NO_THROW(check_workload(Workload{3, 10, 0}));
  EXPECT_NO_THROW(check_workload(Workload{8, 0, 60}));
  EXPECT_THROW(check_workload(Workload{1, 10, 0}), UsageError);
  EXPECT_THROW(check_workload(Workload{9, 10, 0}), UsageError);
  EXPECT_THROW(check_workload(Workload{3, 10, 5}), UsageError);
  EXPECT_THROW(check_workload(Workload{3, kMaxHistoryIncrements + 1, 0}), UsageError);
  EXPECT_THROW(check_workload(Workload{3, 0, kMaxHistorySeconds + 1}), UsageError);
}

TEST(Workload, ACampaignDrawsItsFaultEveryFewTtls) {
  NemesisSchedule s = drawn_schedule(*fault_from("pause"));
  ASSERT_EQ(s.steps.size(), 1u);
  EXPECT_EQ(s.steps[0].trigger, Trigger::every);
  EXPECT_TRUE(s.steps[0].jittered);
  EXPECT_DOUBLE_EQ(s.steps[0].every.seconds(0.2), 0.6);
}

TEST(Workload, AHistoryStrikesTheFaultsItDoesNotRefuse) {
  std::vector<Fault> faults = history_faults();
  EXPECT_NE(std::find(faults.begin(), faults.end(), *fault_from("pause")), faults.end());
  EXPECT_EQ(std::find(faults.begin(), faults.end(), *fault_from("redis-restart")), faults.end());
  for (Fault f : all_faults()) {
    bool struck = std::find(faults.begin(), faults.end(), f) != faults.end();
    EXPECT_EQ(struck, history_refusal(f).empty()) << to_string(f);
  }
}

TEST(Workload, AHistorysFirstLineSaysItsWorkloadAndSchedule) {
  EXPECT_EQ(history_text(Workload{}, std::nullopt), "");
  EXPECT_EQ(history_text(Workload{3, 20, 0}, std::nullopt),
            ", histories of 3 workers, 20 increments each, under each fault every 2 to 4 TTLs");
  EXPECT_EQ(history_text(Workload{2, 0, 4}, parse_schedule("pause:A on read#2", 2)),
            ", histories of 2 workers for 4 s, under pause:A on read#2");
}

// A step armed past the workload's increments is refused; a history of a duration has no last one.
TEST(Workload, AScheduleArmsNoStepPastTheIncrements) {
  NemesisSchedule s = parse_schedule("pause:A on read#3", 2);
  EXPECT_THROW(check_schedule(s, Workload{2, 2, 0}), UsageError);
  EXPECT_NO_THROW(check_schedule(s, Workload{2, 3, 0}));
  EXPECT_NO_THROW(check_schedule(s, Workload{2, 0, 1}));
}

}  // namespace
}  // namespace rlock::chaos
