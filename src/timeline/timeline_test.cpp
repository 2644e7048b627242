// The timeline's model on hand-made events and on the events of real lab runs (testdata/LAB/,
// recorded by scripts/LAB.sh): who really held the lock when, who acted without it, and how each
// write went. No absolute time is asserted: only orders and overlaps.
#include "timeline/timeline.h"

#include <algorithm>
#include <optional>

#include <gtest/gtest.h>

#include "lab/log_dir.h"
#include "lab/run_log.h"
#include "rlock/error.h"

namespace rlock::timeline {

using lab::EventKind;

namespace {

using nlohmann::json;

std::vector<lab::Event> lab_events(const char* lab) {
  return lab::read_events(lab::LogDir(std::string(RLOCK_TESTDATA) + "/" + lab));
}

const Lane& lane(const Timeline& timeline, const std::string& name) {
  auto it =
      std::find_if(timeline.workers.begin(), timeline.workers.end(), [&](const Lane& l) { return l.name == name; });
  if (it == timeline.workers.end()) throw std::runtime_error("no lane " + name);
  return *it;
}

bool overlap(const Interval& a, const Interval& b) { return a.from < b.to && b.from < a.to; }

// The lane holds the lock once, until `held_to`, and then acts without it until `stale_to` (when
// given: from `held_to` on).
void expect_one_hold(const Lane& lane, double held_to, std::optional<double> stale_to) {
  ASSERT_EQ(lane.held.size(), 1u);
  EXPECT_DOUBLE_EQ(lane.held[0].to, held_to);
  ASSERT_EQ(lane.stale.size(), stale_to ? 1u : 0u);
  if (!stale_to) return;
  EXPECT_DOUBLE_EQ(lane.stale[0].from, held_to);
  EXPECT_DOUBLE_EQ(lane.stale[0].to, *stale_to);
}

// `stale` acted as the holder while `holder` really held the lock, and not before.
void expect_acting_while_other_holds(const Lane& stale, const Lane& holder) {
  ASSERT_EQ(stale.held.size(), 1u);
  ASSERT_EQ(stale.stale.size(), 1u);
  ASSERT_EQ(holder.held.size(), 1u);
  EXPECT_TRUE(holder.stale.empty());
  EXPECT_TRUE(overlap(stale.stale[0], holder.held[0]));
  EXPECT_FALSE(overlap(stale.held[0], holder.held[0]));
}

std::vector<const Mark*> marks_of(const Lane& lane, EventKind kind) {
  std::vector<const Mark*> found;
  for (const Mark& mark : lane.marks) {
    if (mark.event.kind == kind) found.push_back(&mark);
  }
  return found;
}

// Lab 1: A's lock expired during its pause; B held it while A still acted as the holder.
TEST(Timeline, Lab1AActsWithoutTheLockWhileBHoldsIt) {
  Timeline timeline = build_timeline(lab_events("lab1"));
  const Lane& a = lane(timeline, "A");
  expect_acting_while_other_holds(a, lane(timeline, "B"));
  // A acted until its release, which found the lock gone.
  EXPECT_EQ(a.stale[0].to, marks_of(a, EventKind::released).back()->event.t);
  EXPECT_EQ(marks_of(a, EventKind::released).back()->result, MarkResult::failed);
  EXPECT_TRUE(timeline.host.marks.empty());
  EXPECT_EQ(timeline.verdict.balance, 130);
  EXPECT_EQ(timeline.verdict.expected, 180);
  EXPECT_TRUE(timeline.verdict.lost_update());
}

// Lab 2: SIGSTOP froze A and its watchdog; the pause spans B's whole hold.
TEST(Timeline, Lab2ThePauseSpansBsHold) {
  Timeline timeline = build_timeline(lab_events("lab2"));
  const Lane& a = lane(timeline, "A");
  const Lane& b = lane(timeline, "B");
  expect_acting_while_other_holds(a, b);
  ASSERT_EQ(a.paused.size(), 1u);
  EXPECT_LT(a.paused[0].from, b.held[0].from);
  EXPECT_GT(a.paused[0].to, b.held[0].to);
  EXPECT_TRUE(b.paused.empty());
  EXPECT_EQ(timeline.host.marks.size(), 2u);
}

// Lab 3: A's first write, with the stale token, is rejected; its second one is accepted.
TEST(Timeline, Lab3AsFirstWriteIsRejected) {
  Timeline timeline = build_timeline(lab_events("lab3"));
  const Lane& a = lane(timeline, "A");
  auto writes = marks_of(a, EventKind::fenced_write);
  ASSERT_EQ(writes.size(), 2u);
  EXPECT_EQ(writes[0]->result, MarkResult::rejected);
  EXPECT_EQ(writes[1]->result, MarkResult::ok);
  EXPECT_EQ(a.held.size(), 2u);
  EXPECT_EQ(timeline.verdict.balance, 180);
  EXPECT_EQ(timeline.verdict.expected, 180);
  EXPECT_FALSE(timeline.verdict.lost_update());
}

TEST(Timeline, AWatchdogExtensionMovesTheExpiry) {
  Timeline timeline = build_timeline({
      {0.0, "A", EventKind::acquired, {{"ttl_ms", 1000}}},
      {0.5, "A", EventKind::watchdog_extended, {{"pttl", 1000}}},
      {3.0, "A", EventKind::released, {{"result", 0}}},
  });
  expect_one_hold(lane(timeline, "A"), 1.5, 3.0);
}

TEST(Timeline, AReleaseThatDeletedTheLockEndsTheHoldWithNothingStale) {
  Timeline timeline = build_timeline({
      {0.0, "A", EventKind::acquired, {{"ttl_ms", 1000}}},
      {0.4, "A", EventKind::released, {{"result", 1}}},
  });
  expect_one_hold(lane(timeline, "A"), 0.4, std::nullopt);
}

// A Redis that came back without the lock took it, though its TTL had long to run.
TEST(Timeline, ARestartWithoutTheLockEndsTheHold) {
  Timeline timeline = build_timeline({
      {0.0, "A", EventKind::acquired, {{"ttl_ms", 30000}}},
      {0.1, "host", EventKind::redis_killed, {{"server", "127.0.0.1:6393"}, {"pttl", 29900}}},
      {0.2, "host", EventKind::redis_started, {{"server", "127.0.0.1:6393"}, {"pttl", -2}}},
      {0.3, "B", EventKind::acquired, {{"ttl_ms", 30000}}},
      {0.4, "B", EventKind::released, {{"result", 1}}},
      {3.0, "A", EventKind::released, {{"result", 0}}},
  });
  expect_one_hold(lane(timeline, "A"), 0.2, 3.0);
  EXPECT_EQ(timeline.host.marks.size(), 2u);
}

// The expected balance: the initial 100 and every worker's amount, a failed worker's too.
TEST(Timeline, TheBalancesComeFromTheEvents) {
  Timeline timeline = build_timeline({
      {0.0, "A", EventKind::read, {{"balance", 100}}},
      {0.1, "A", EventKind::fenced_write, {{"balance", 130}, {"fence", 1}, {"rowcount", 1}}},
      {0.2, "B", EventKind::read, {{"balance", 130}}},
      {0.3, "B", EventKind::fenced_write, {{"balance", 180}, {"fence", 1}, {"rowcount", 0}}},
      {0.4, "B", EventKind::error, {{"message", "rejected"}, {"amount", 50}, {"added", false}}},
      {0.5, "C", EventKind::wrote, {{"before", 130}, {"amount", 5}, {"after", 135}}},
  });
  EXPECT_EQ(timeline.verdict.balance, 135);
  EXPECT_EQ(timeline.verdict.expected, 185);
  EXPECT_FALSE(timeline.verdict.lost_update());  // B failed and said so
}

// A history: each increment's amount once, from its read; an acquire that failed after an applied
// write is an increment of its own.
TEST(Timeline, AHistoryExpectsEveryIncrement) {
  Timeline timeline = build_timeline({
      {0.0, "A", EventKind::read, {{"balance", 100}}},
      {0.1, "A", EventKind::wrote, {{"before", 100}, {"amount", 3}, {"after", 103}}},
      {0.2, "A", EventKind::error, {{"message", "release: reset"}, {"amount", 3}, {"added", true}}},
      {0.3, "A", EventKind::read, {{"balance", 103}}},
      {0.4, "A", EventKind::wrote, {{"before", 103}, {"amount", 3}, {"after", 106}}},
      {0.5, "A", EventKind::error, {{"message", "session expired"}, {"amount", 3}, {"added", false}}},
      {0.6, "B", EventKind::read, {{"balance", 106}}},
      {0.7, "B", EventKind::wrote, {{"before", 106}, {"amount", 10}, {"after", 116}}},
  });
  EXPECT_EQ(timeline.verdict.expected, 119);
  EXPECT_EQ(timeline.verdict.balance, 116);
  EXPECT_FALSE(timeline.verdict.lost_update()) << timeline.verdict.line(lab::Lang::en);
}

TEST(Timeline, NoEventsIsAnError) { EXPECT_THROW(build_timeline({}), Error); }

}  // namespace
}  // namespace rlock::timeline
