// The fair queue of WaitMode::queue (RedisLock::acquire_queued, the release's wake-up, the queue
// waiter) against the real Redis at REDIS_URL. Each test owns the keys of one account (9310+).
// No test asserts a speed: a woken waiter must return long before its (large) retry interval.
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "rlock/redis_connection.h"
#include "rlock/release_waiter.h"
#include "testing/test_env.h"

namespace rlock {
namespace {

using namespace std::chrono_literals;
using testing::servers;
using testing::TestLock;
using Clock = std::chrono::steady_clock;

QueueTicket ticket(std::string id, std::chrono::milliseconds ttl = 30s) { return QueueTicket{std::move(id), ttl}; }

std::vector<std::string> queue_of(TestLock& t) {
  Reply reply = t.redis.checked({"LRANGE", t.key.queue, "0", "-1"});
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < reply.size(); ++i) ids.push_back(reply.element(i).text());
  return ids;
}

TEST(LockQueue, WaitersAreGrantedTheLockInTheOrderTheyWereRefused) {
  TestLock t(9310, LockOptions{.waiters = WaitMode::queue});
  auto holder = t.lock.acquire_queued(30s, ticket("h"), false);
  ASSERT_TRUE(holder);
  for (const char* id : {"a", "b", "c"}) EXPECT_FALSE(t.lock.acquire_queued(30s, ticket(id), false));
  EXPECT_FALSE(t.lock.acquire_queued(30s, ticket("b"), false));  // asking again keeps its place
  EXPECT_EQ(queue_of(t), (std::vector<std::string>{"a", "b", "c"}));
  ASSERT_EQ(t.lock.release(holder->token), ReleaseResult::released);

  EXPECT_FALSE(t.lock.acquire_queued(30s, ticket("c"), false));    // the lock is free, but a is first
  EXPECT_FALSE(t.lock.acquire_queued(30s, ticket("new"), false));  // and a newcomer goes last
  for (const char* id : {"a", "b", "c", "new"}) {
    holder = t.lock.acquire_queued(30s, ticket(id), false);
    ASSERT_TRUE(holder) << id << " should have been next";
    ASSERT_EQ(t.lock.release(holder->token), ReleaseResult::released);
  }
  EXPECT_TRUE(queue_of(t).empty());
}

TEST(LockQueue, AQueuedFencedAcquisitionCarriesAGrowingFence) {
  TestLock t(9311, LockOptions{.waiters = WaitMode::queue});
  auto first = t.lock.acquire_queued(30s, ticket("a"), true);
  ASSERT_TRUE(first);
  ASSERT_TRUE(first->fence);
  ASSERT_EQ(t.lock.release(first->token), ReleaseResult::released);
  auto second = t.lock.acquire_queued(30s, ticket("b"), true);
  ASSERT_TRUE(second && second->fence);
  EXPECT_GT(second->fence->value, first->fence->value);
}

TEST(LockQueue, AWaiterThatStoppedAskingIsSkippedAfterItsTicketsTtl) {
  TestLock t(9312, LockOptions{.waiters = WaitMode::queue});
  auto holder = t.lock.acquire_queued(30s, ticket("h"), false);
  ASSERT_TRUE(holder);
  EXPECT_FALSE(t.lock.acquire_queued(30s, ticket("dead", 200ms), false));
  EXPECT_FALSE(t.lock.acquire_queued(30s, ticket("live"), false));
  ASSERT_EQ(t.lock.release(holder->token), ReleaseResult::released);
  EXPECT_FALSE(t.lock.acquire_queued(30s, ticket("live"), false));  // dead's ticket is still valid
  std::this_thread::sleep_for(400ms);
  EXPECT_TRUE(t.lock.acquire_queued(30s, ticket("live"), false));
  EXPECT_TRUE(queue_of(t).empty());
}

TEST(LockQueue, AReleaseWakesTheHeadOnly) {
  TestLock t(9313, LockOptions{.waiters = WaitMode::queue});
  auto holder = t.lock.acquire(30s);
  ASSERT_TRUE(holder);
  ReleaseWaiter first(WaitMode::queue, servers().redis, t.key, 20s);
  ReleaseWaiter second(WaitMode::queue, servers().redis, t.key, 20s);
  ASSERT_FALSE(t.lock.acquire_queued(30s, first.ticket(), false));
  ASSERT_FALSE(t.lock.acquire_queued(30s, second.ticket(), false));
  EXPECT_EQ(first.ticket().ttl, 100s);  // five retry intervals
  ASSERT_EQ(t.lock.release(holder->token), ReleaseResult::released);

  auto start = Clock::now();
  first.wait();
  EXPECT_LT(Clock::now() - start, 10s);  // woken by the release, not by the 20 s interval
  start = Clock::now();
  second.wait({}, Clock::now() + 300ms);
  EXPECT_GE(Clock::now() - start, 300ms);  // not its turn: nothing woke it
  EXPECT_TRUE(t.lock.acquire_queued(30s, first.ticket(), false));
}

TEST(LockQueue, AReleaseSkipsADeadHeadAndWakesTheNext) {
  TestLock t(9314, LockOptions{.waiters = WaitMode::queue});
  auto holder = t.lock.acquire(30s);
  ASSERT_TRUE(holder);
  ReleaseWaiter live(WaitMode::queue, servers().redis, t.key, 20s);
  ASSERT_FALSE(t.lock.acquire_queued(30s, ticket("dead", 100ms), false));
  ASSERT_FALSE(t.lock.acquire_queued(30s, live.ticket(), false));
  std::this_thread::sleep_for(300ms);
  ASSERT_EQ(t.lock.release(holder->token), ReleaseResult::released);
  auto start = Clock::now();
  live.wait();
  EXPECT_LT(Clock::now() - start, 10s);
  EXPECT_EQ(queue_of(t), std::vector<std::string>{live.ticket().id});
}

}  // namespace
}  // namespace rlock
