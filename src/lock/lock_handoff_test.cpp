// The direct hand-off of WaitMode::handoff (RedisLock::acquire_handoff, the release that gives the lock to the
// queue's head, ReleaseWaiter::wait_for_handover, the Acquirer's wait) against the real Redis at REDIS_URL. Each
// test owns the keys of one account (9320+). No test asserts a speed: a waiter handed the lock must hear of it long
// before its (large) retry interval.
#include <chrono>
#include <future>
#include <thread>

#include <gtest/gtest.h>

#include "rlock/acquire.h"
#include "rlock/redis_connection.h"
#include "rlock/release_waiter.h"
#include "testing/test_env.h"

namespace rlock {
namespace {

using namespace std::chrono_literals;
using testing::servers;
using testing::TestLock;
using Clock = std::chrono::steady_clock;

constexpr LockOptions kHandoff{.waiters = WaitMode::handoff};

QueueTicket ticket(std::string id, std::chrono::milliseconds ttl = 30s) { return QueueTicket{std::move(id), ttl}; }

// Another client of the lock, on its connection, waiting through an Acquirer.
struct Waiter {
  Waiter(const LockKey& key, AcquirePolicy policy)
      : lock(redis, key, kHandoff), acquirer(lock, servers().redis, policy) {}
  RedisConnection redis{servers().redis};
  RedisLock lock;
  Acquirer acquirer;
};

long long queue_length(TestLock& t) { return t.redis.checked({"LLEN", t.key.queue}).integer(); }

TEST(LockHandoff, AReleaseGivesTheLockToTheHeadsTokenAndTellsItAlone) {
  TestLock t(9320, kHandoff);
  auto holder = t.lock.acquire_handoff(30s, ticket("h"), make_token(), false);
  ASSERT_TRUE(holder);
  ReleaseWaiter first(WaitMode::handoff, servers().redis, t.key, 20s);
  ReleaseWaiter second(WaitMode::handoff, servers().redis, t.key, 20s);
  Token first_token = make_token();
  Token second_token = make_token();
  ASSERT_FALSE(t.lock.acquire_handoff(30s, first.ticket(), first_token, false));
  ASSERT_FALSE(t.lock.acquire_handoff(30s, second.ticket(), second_token, false));
  ASSERT_EQ(t.lock.release(holder->token), ReleaseResult::released);

  EXPECT_EQ(t.get(t.key.lock), first_token.hex);  // never free in between
  EXPECT_GT(t.redis.checked({"PTTL", t.key.lock}).integer(), 20000);
  EXPECT_EQ(queue_length(t), 1);
  auto start = Clock::now();
  EXPECT_EQ(first.wait_for_handover(first_token), 0);  // not fenced
  EXPECT_LT(Clock::now() - start, 10s);
  EXPECT_FALSE(second.wait_for_handover(second_token, Clock::now() + 300ms));  // not its turn: nothing came
  EXPECT_TRUE(t.lock.holds(first_token).held);
}

TEST(LockHandoff, AFencedHandOverMintsTheNextFenceAndAskingAgainFindsIt) {
  TestLock t(9321, kHandoff);
  auto holder = t.lock.acquire_handoff(30s, ticket("h"), make_token(), true);
  ASSERT_TRUE(holder && holder->fence);
  ReleaseWaiter waiter(WaitMode::handoff, servers().redis, t.key, 20s);
  Token token = make_token();
  ASSERT_FALSE(t.lock.acquire_handoff(30s, waiter.ticket(), token, true));
  ASSERT_EQ(t.lock.release(holder->token), ReleaseResult::released);

  std::optional<long long> fence = waiter.wait_for_handover(token);
  ASSERT_TRUE(fence);
  EXPECT_EQ(*fence, holder->fence->value + 1);
  // A waiter that asks before it reads the message is granted what it was handed, with the same fence.
  auto again = t.lock.acquire_handoff(30s, waiter.ticket(), token, true);
  ASSERT_TRUE(again && again->fence);
  EXPECT_EQ(again->fence->value, *fence);
}

TEST(LockHandoff, AReleaseSkipsADeadHeadAndHandsTheLockToTheNext) {
  TestLock t(9322, kHandoff);
  auto holder = t.lock.acquire(30s);
  ASSERT_TRUE(holder);
  Token dead = make_token();
  Token live = make_token();
  ASSERT_FALSE(t.lock.acquire_handoff(30s, ticket("dead", 100ms), dead, false));
  ASSERT_FALSE(t.lock.acquire_handoff(30s, ticket("live"), live, false));
  std::this_thread::sleep_for(300ms);
  ASSERT_EQ(t.lock.release(holder->token), ReleaseResult::released);
  EXPECT_EQ(t.get(t.key.lock), live.hex);
  EXPECT_EQ(queue_length(t), 0);
  EXPECT_EQ(t.redis.checked({"HLEN", t.key.queue_claims}).integer(), 0);  // the dead claim went with its ticket
}

TEST(LockHandoff, WithNobodyWaitingTheReleaseDeletesTheLockAndAnnouncesIt) {
  TestLock t(9323, kHandoff);
  RedisConnection subscriber(servers().redis);
  subscriber.checked({"SUBSCRIBE", t.key.released_channel});
  auto holder = t.lock.acquire_handoff(30s, ticket("h"), make_token(), false);
  ASSERT_TRUE(holder);
  ASSERT_EQ(t.lock.release(holder->token), ReleaseResult::released);
  EXPECT_FALSE(t.get(t.key.lock));
  std::optional<Reply> message = subscriber.receive(5s);
  ASSERT_TRUE(message);
  EXPECT_EQ(message->element(2).text(), holder->token.hex);
  EXPECT_EQ(t.lock.release(holder->token), ReleaseResult::not_held);
}

TEST(LockHandoff, AWaiterIgnoresAHandOverToAnotherToken) {
  TestLock t(9324, kHandoff);
  auto holder = t.lock.acquire(30s);
  ASSERT_TRUE(holder);
  ReleaseWaiter waiter(WaitMode::handoff, servers().redis, t.key, 20s);
  Token earlier = make_token();  // the token of a wait the waiter gave up
  ASSERT_FALSE(t.lock.acquire_handoff(30s, waiter.ticket(), earlier, false));
  ASSERT_EQ(t.lock.release(holder->token), ReleaseResult::released);
  auto start = Clock::now();
  EXPECT_FALSE(waiter.wait_for_handover(make_token(), Clock::now() + 300ms));
  EXPECT_GE(Clock::now() - start, 300ms);
}

TEST(LockHandoff, TheAcquirerWakesHoldingTheLock) {
  TestLock t(9325, kHandoff);
  auto holder = t.lock.acquire_fenced(30s);
  ASSERT_TRUE(holder);
  Waiter waiter(t.key, AcquirePolicy{.retry = 20s, .wait = WaitMode::handoff, .deadline = std::nullopt});
  auto waiting = std::async(std::launch::async, [&] { return waiter.acquirer.acquire_fenced(30s); });
  while (queue_length(t) == 0) std::this_thread::sleep_for(10ms);
  ASSERT_EQ(t.lock.release(holder->token), ReleaseResult::released);
  ASSERT_EQ(waiting.wait_for(10s), std::future_status::ready);  // woken by the hand-over, not the 20 s retry
  Acquisition acquired = waiting.get();
  ASSERT_TRUE(acquired && acquired->fence);
  EXPECT_EQ(t.get(t.key.lock), acquired->token.hex);
  EXPECT_EQ(acquired->fence->value, holder->fence->value + 1);
  EXPECT_EQ(waiter.lock.release(acquired->token), ReleaseResult::released);
}

TEST(LockHandoff, AnAcquirerThatGivesUpLeavesTheQueueAndNoLockBehind) {
  TestLock t(9326, kHandoff);
  auto holder = t.lock.acquire(30s);
  ASSERT_TRUE(holder);
  Waiter waiter(t.key, AcquirePolicy{.retry = 50ms, .wait = WaitMode::handoff, .deadline = 200ms});
  EXPECT_FALSE(waiter.acquirer.acquire(30s));
  EXPECT_EQ(queue_length(t), 0);
  ASSERT_EQ(t.lock.release(holder->token), ReleaseResult::released);
  EXPECT_FALSE(t.get(t.key.lock));  // nobody was left to hand it to
}

}  // namespace
}  // namespace rlock
