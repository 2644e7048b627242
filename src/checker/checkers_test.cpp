// The checkers on hand-made histories, valid and invalid, and the history built from events.
#include "checker/checkers.h"
#include "chaos/generator.h"

#include <stdexcept>

#include <gtest/gtest.h>

namespace rlock::checker {

using lab::Event;
using lab::EventKind;

namespace {

Operation op(const char* worker, long long amount, Outcome outcome, std::vector<Section> sections = {}) {
  return Operation{worker, amount, outcome, std::move(sections)};
}

Section section(double read_at, double wrote_at, bool accepted = true, std::optional<long long> fence = {}) {
  return Section{read_at, wrote_at, accepted, fence};
}

TEST(LostUpdates, EveryAcknowledgedIncrementPresentIsValid) {
  CheckResult r = check_lost_updates(100, 180, {op("A", 30, Outcome::ok), op("B", 50, Outcome::ok)});
  EXPECT_EQ(r.validity, Validity::valid);
}

TEST(LostUpdates, AMissingAcknowledgedIncrementIsInvalid) {
  CheckResult r = check_lost_updates(100, 130, {op("A", 30, Outcome::ok), op("B", 50, Outcome::ok)});
  EXPECT_EQ(r.validity, Validity::invalid);
  EXPECT_EQ(r.amount, 50);
}

TEST(LostUpdates, AFailedIncrementMustBeAbsent) {
  EXPECT_EQ(check_lost_updates(100, 150, {op("A", 30, Outcome::fail), op("B", 50, Outcome::ok)}).validity,
            Validity::valid);
  CheckResult r = check_lost_updates(100, 180, {op("A", 30, Outcome::fail), op("B", 50, Outcome::ok)});
  EXPECT_EQ(r.validity, Validity::invalid);
  EXPECT_EQ(r.amount, -30);
}

// The boundary cases: an unknown increment that did, or did not, apply.
TEST(LostUpdates, AnUnknownIncrementMayHaveAppliedOrNot) {
  std::vector<Operation> history{op("A", 30, Outcome::info), op("B", 50, Outcome::ok)};
  EXPECT_EQ(check_lost_updates(100, 150, history).validity, Validity::valid);    // did not
  EXPECT_EQ(check_lost_updates(100, 180, history).validity, Validity::valid);    // did
  EXPECT_EQ(check_lost_updates(100, 130, history).validity, Validity::invalid);  // B's 50 is gone
  EXPECT_EQ(check_lost_updates(100, 181, history).validity, Validity::invalid);
}

TEST(Overlaps, SectionsOneAfterTheOtherAreValid) {
  std::vector<Operation> history{op("A", 30, Outcome::ok, {section(0.0, 0.1)}),
                                 op("B", 50, Outcome::ok, {section(0.2, 0.3)})};
  EXPECT_EQ(check_overlaps(history).validity, Validity::valid);
}

TEST(Overlaps, TwoAcceptedOverlappingSectionsAreInvalid) {
  std::vector<Operation> history{op("A", 30, Outcome::ok, {section(0.0, 3.0)}),
                                 op("B", 50, Outcome::ok, {section(2.0, 2.1)})};
  CheckResult r = check_overlaps(history);
  EXPECT_EQ(r.validity, Validity::invalid);
  EXPECT_EQ(r.count, 1);
}

// Lab 3: A's stale section overlaps B's, but the database rejected A's write.
TEST(Overlaps, ARejectedWriteDoesNotCount) {
  std::vector<Operation> history{op("A", 30, Outcome::ok, {section(0.0, 3.0, false, 1), section(3.1, 3.2, true, 3)}),
                                 op("B", 50, Outcome::ok, {section(2.0, 2.1, true, 2)})};
  EXPECT_EQ(check_overlaps(history).validity, Validity::valid);
  EXPECT_EQ(check_fences(history).validity, Validity::valid);
}

TEST(Fences, ASmallerTokenAcceptedAfterALargerOneIsInvalid) {
  std::vector<Operation> history{op("A", 30, Outcome::ok, {section(0.0, 3.0, true, 2)}),
                                 op("B", 50, Outcome::ok, {section(1.0, 1.1, true, 1)})};
  EXPECT_EQ(check_fences(history).validity, Validity::valid);  // 1 at 1.1, then 2 at 3.0
  history[1].sections[0] = section(3.5, 3.6, true, 1);         // 2 at 3.0, then 1 at 3.6
  CheckResult r = check_fences(history);
  EXPECT_EQ(r.validity, Validity::invalid);
  EXPECT_EQ(r.count, 1);
}

TEST(Guarded, ACrashedCheckerIsUnknownNeverValid) {
  CheckResult r = guarded([]() -> CheckResult { throw std::runtime_error("boom"); });
  EXPECT_EQ(r.validity, Validity::unknown);
}

Event event(double t, const char* who, EventKind kind, nlohmann::json fields = nlohmann::json::object()) {
  return Event{t, who, kind, std::move(fields)};
}

// Lab 3's events: A's first write rejected, its retry accepted; both workers exited 0.
TEST(History, FromLabThreesEvents) {
  std::vector<Event> events{
      event(0.00, "A", EventKind::acquired, {{"ttl_ms", 2000}, {"fence", 1}}),
      event(0.05, "A", EventKind::read, {{"balance", 100}}),
      event(2.04, "B", EventKind::acquired, {{"ttl_ms", 2000}, {"fence", 2}}),
      event(2.09, "B", EventKind::read, {{"balance", 100}}),
      event(2.12, "B", EventKind::fenced_write, {{"balance", 150}, {"fence", 2}, {"rowcount", 1}}),
      event(3.06, "A", EventKind::fenced_write, {{"balance", 130}, {"fence", 1}, {"rowcount", 0}}),
      event(3.12, "A", EventKind::read, {{"balance", 150}}),
      event(3.14, "A", EventKind::fenced_write, {{"balance", 180}, {"fence", 3}, {"rowcount", 1}}),
  };
  std::vector<Operation> history = history_from(events, {{"A", 30, true, 0}, {"B", 50, true, 0}});
  ASSERT_EQ(history.size(), 2u);
  EXPECT_EQ(history[0].outcome, Outcome::ok);
  ASSERT_EQ(history[0].sections.size(), 2u);
  EXPECT_FALSE(history[0].sections[0].accepted);
  EXPECT_DOUBLE_EQ(history[0].sections[0].read_at, 0.05);
  EXPECT_EQ(history[0].sections[1].fence, 3);
  EXPECT_EQ(check_lost_updates(100, 180, history).validity, Validity::valid);
}

TEST(History, ExitStatusesDecideTheOutcome) {
  std::vector<Event> events{
      event(0.1, "B", EventKind::error, {{"message", "x"}, {"amount", 50}, {"added", false}, {"in_doubt", true}}),
      event(0.2, "C", EventKind::error, {{"message", "x"}, {"amount", 10}, {"added", false}, {"in_doubt", false}}),
  };
  std::vector<Operation> history =
      history_from(events, {{"A", 30, false, 0}, {"B", 50, true, 1}, {"C", 10, true, 1}, {"D", 5, true, 3}});
  EXPECT_EQ(history[0].outcome, Outcome::info);  // killed before writing
  EXPECT_EQ(history[1].outcome, Outcome::info);  // its write's answer was lost
  EXPECT_EQ(history[2].outcome, Outcome::fail);  // failed before adding
  EXPECT_EQ(history[3].outcome, Outcome::fail);  // fenced write rejected, no retry
}

// A kill may now fall after the write and before the release: the increment is in, and ok.
TEST(History, AWorkerKilledAfterItsWriteIsOk) {
  std::vector<Event> events{
      event(0.10, "A", EventKind::read, {{"balance", 100}}),
      event(0.12, "A", EventKind::wrote, {{"before", 100}, {"amount", 30}, {"after", 130}, {"sent_at", 0.11}}),
      event(0.13, "host", EventKind::signal, {{"signal", "SIGKILL"}, {"target", "A"}}),
  };
  std::vector<Operation> history = history_from(events, {{"A", 30, false, 0}});
  EXPECT_EQ(history[0].outcome, Outcome::ok);
  EXPECT_EQ(check_lost_updates(100, 130, history).validity, Validity::valid);
}

TEST(Schedule, AKillFallsFromTheTargetsReadToItsReleaseAndAFailoverInItsWork) {
  chaos::ChaosSetup setup;
  setup.seed = 2026;
  for (int n = 0; n < 50; ++n) {
    chaos::Schedule kill = chaos::schedule_for({lab::Strategy::ttl, chaos::fault_named("kill"), n, {}}, setup);
    const lab::WorkerPlan& target = kill.workers[kill.target];
    EXPECT_GE(target.hold_seconds, 0.005);
    EXPECT_LE(chaos::fault_named("kill")->strike_after_s(kill), target.work_seconds + target.hold_seconds);
    chaos::Fault failover_fault = chaos::fault_named("failover");
    chaos::Schedule failover = chaos::schedule_for({lab::Strategy::ttl, failover_fault, n, {}}, setup);
    EXPECT_LE(failover_fault->strike_after_s(failover), failover.workers[failover.target].work_seconds);
    auto drawn = failover_fault->own_draws(failover);
    ASSERT_EQ(drawn.size(), 2u);
    EXPECT_EQ(drawn[1].first, "replica_lag_s");
    EXPECT_GE(drawn[1].second, 0);
    EXPECT_LE(drawn[1].second, 0.4);  // 2 TTLs of 200 ms
  }
}

TEST(FaultStruck, ByTheNemesisActsOrUnderSlowByTheTargetsRead) {
  chaos::Schedule schedule{{{.name = "A", .amount = 10}, {.name = "B", .amount = 20, .delay_seconds = 0.01}}, 0, 0, {}};
  std::vector<Event> read_only{event(0.1, "A", EventKind::read, {{"balance", 100}})};
  std::vector<Event> signalled{event(0.1, "A", EventKind::read, {{"balance", 100}}),
                               event(0.2, "host", EventKind::signal, {{"signal", "SIGSTOP"}, {"target", "A"}})};
  EXPECT_TRUE(chaos::fault_named("pause")->struck(schedule, signalled));
  EXPECT_FALSE(chaos::fault_named("pause")->struck(schedule, read_only));
  EXPECT_TRUE(chaos::fault_named("slow")->struck(schedule, read_only));
  EXPECT_FALSE(chaos::fault_named("none")->struck(schedule, read_only));
}

TEST(FaultStruck, NetDelayStrikesAnyWorkerThatDidAnything) {
  chaos::Schedule schedule{{{.name = "A", .amount = 10}}, 0, 0, {}};
  std::vector<Event> added_only{event(0.1, "A", EventKind::wrote, {{"before", 100}, {"amount", 10}, {"after", 110}})};
  EXPECT_TRUE(chaos::fault_named("net-delay")->struck(schedule, added_only));
  EXPECT_FALSE(chaos::fault_named("net-delay")->struck(schedule, {}));
}

}  // namespace
}  // namespace rlock::checker
