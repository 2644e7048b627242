// The release announcement and ReleaseWaiter against the real Redis at REDIS_URL. Each test owns
// the keys of one account (9301+). No test asserts a speed: a notified waiter must return long
// before its (large) retry interval, an unnotified one not before it.
#include "rlock/release_waiter.h"

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "rlock/redis_connection.h"
#include "testing/test_env.h"

namespace rlock {
namespace {

using namespace std::chrono_literals;
using testing::servers;
using testing::TestLock;
using Clock = std::chrono::steady_clock;

TEST(ReleaseAnnouncement, ReleasePublishesTheTokenOnTheChannel) {
  TestLock t(9301);
  RedisConnection subscriber(servers().redis);
  subscriber.checked({"SUBSCRIBE", t.key.released_channel});
  auto lease = t.lock.acquire(30s);
  ASSERT_TRUE(lease);
  ASSERT_EQ(t.lock.release(lease->token), ReleaseResult::released);
  std::optional<Reply> message = subscriber.receive(5s);
  ASSERT_TRUE(message);
  EXPECT_EQ(message->element(0).text(), "message");
  EXPECT_EQ(message->element(1).text(), t.key.released_channel);
  EXPECT_EQ(message->element(2).text(), lease->token.hex);
}

TEST(ReleaseAnnouncement, AReleaseThatFindsAnotherTokenIsNotAnnounced) {
  TestLock t(9302);
  RedisConnection subscriber(servers().redis);
  subscriber.checked({"SUBSCRIBE", t.key.released_channel});
  ASSERT_TRUE(t.lock.acquire(30s));
  EXPECT_EQ(t.lock.release(make_token()), ReleaseResult::not_held);
  EXPECT_FALSE(subscriber.receive(200ms));
}

TEST(ReleaseWaiter, NotifyWakesOnAnotherHoldersRelease) {
  TestLock t(9303);
  auto lease = t.lock.acquire(30s);
  ASSERT_TRUE(lease);
  ReleaseWaiter waiter(WaitMode::notify, servers().redis, t.key, 20s);
  std::thread releaser([&] {
    std::this_thread::sleep_for(100ms);
    t.lock.release(lease->token);
  });
  auto start = Clock::now();
  waiter.wait();
  auto waited = Clock::now() - start;
  releaser.join();
  EXPECT_LT(waited, 10s);  // woken by the release, not by the 20 s interval
}

// How long a waiter subscribed before its own acquisition waits after releasing it.
Clock::duration wait_after_own_release(WaitMode mode, long account, std::chrono::milliseconds retry) {
  TestLock t(account);
  ReleaseWaiter waiter(mode, servers().redis, t.key, retry);
  auto lease = t.lock.acquire(30s);
  EXPECT_TRUE(lease);
  if (!lease) return {};
  EXPECT_EQ(t.lock.release(lease->token), ReleaseResult::released);
  auto start = Clock::now();
  waiter.wait(lease->token.hex);
  return Clock::now() - start;
}

TEST(ReleaseWaiter, NotifyIgnoresItsOwnRelease) {
  EXPECT_GE(wait_after_own_release(WaitMode::notify, 9304, 300ms), 300ms);  // its own announcement did not wake it
}

TEST(ReleaseWaiter, PollSleepsTheWholeInterval) {
  EXPECT_GE(wait_after_own_release(WaitMode::poll, 9305, 300ms), 300ms);
}

TEST(ReleaseWaiter, NotifyWithoutRedisFallsBackToTheInterval) {
  RedisAddress nowhere = servers().redis;
  nowhere.port = testing::closed_port();
  ReleaseWaiter waiter(WaitMode::notify, nowhere, LockKey::for_account(9306), 200ms);
  auto start = Clock::now();
  waiter.wait();  // never throws
  EXPECT_GE(Clock::now() - start, 200ms);
}

}  // namespace
}  // namespace rlock
