// The acquisition policy against the real Redis at REDIS_URL (accounts 9801+), and against a Redis
// of the test's own that it kills and restarts (port 6458).
#include "rlock/acquire.h"

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "host/local_redis.h"
#include "host/temp_dir.h"
#include "rlock/error.h"
#include "testing/test_env.h"

namespace rlock {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using testing::TestLock;

constexpr int kPort = 6458;  // a port of this test alone

// What an Acquirer's observer heard.
struct Heard {
  std::vector<Acquisition::Refusal> refusals;
  std::vector<std::string> unanswered;

  AcquireObserver observer() {
    return AcquireObserver{[this](const Acquisition& refused) { refusals.push_back(refused.refusal); },
                           [this](const Error& e) { unanswered.push_back(e.what()); }};
  }
};

// Another client of the holder's lock, on a connection of its own.
struct Contender {
  explicit Contender(const LockKey& key) : lock(redis, key) {}
  RedisConnection redis{testing::servers().redis};
  RedisLock lock;
};

// A Redis of the test's own, a lock on it, and an Acquirer that gives up after 500 ms of silence.
struct OwnRedis {
  explicit OwnRedis(const std::string& name, LockOptions options = {})
      : lock(redis, LockKey::named(name), options),
        acquirer(lock, server.address(),
                 AcquirePolicy{.retry = 50ms, .unanswered_limit = 500ms, .deadline = std::nullopt}, heard.observer()) {}
  host::TempDir dir;
  host::LocalRedis server{kPort, dir.path()};
  RedisConnection redis{server.address(), RedisTimeouts{200ms, 200ms}};
  RedisLock lock;
  Heard heard;
  Acquirer acquirer;
};

TEST(Acquirer, BusyThenReleasedAcquiresAndSaysBusyOnce) {
  TestLock holder(9801);
  Acquisition held = holder.lock.acquire(30s);
  ASSERT_TRUE(held);
  Contender contender(holder.key);
  Heard heard;
  AcquirePolicy policy{.retry = 50ms, .wait = WaitMode::notify, .deadline = std::nullopt};
  Acquirer acquirer(contender.lock, testing::servers().redis, policy, heard.observer());
  std::thread release([&] {
    std::this_thread::sleep_for(300ms);
    holder.lock.release(held->token);
  });
  auto began = Clock::now();
  Acquisition got = acquirer.acquire(30s);
  release.join();
  ASSERT_TRUE(got);
  EXPECT_GE(Clock::now() - began, 300ms);
  EXPECT_EQ(holder.get(holder.key.lock), got->token.hex);
  EXPECT_EQ(heard.refusals, std::vector{Acquisition::Refusal::busy});
  EXPECT_TRUE(heard.unanswered.empty());
}

TEST(Acquirer, DeadlinePassedReturnsTheLastRefusal) {
  TestLock holder(9802);
  Acquisition held = holder.lock.acquire(30s);
  ASSERT_TRUE(held);
  Contender contender(holder.key);
  Acquirer acquirer(contender.lock, testing::servers().redis, AcquirePolicy{.retry = 100ms, .deadline = 350ms});
  auto began = Clock::now();
  Acquisition got = acquirer.acquire_fenced(30s);
  auto took = Clock::now() - began;
  EXPECT_FALSE(got);
  EXPECT_EQ(got.refusal, Acquisition::Refusal::busy);
  EXPECT_GE(took, 350ms);
  EXPECT_LT(took, 350ms + 200ms) << "the last wait ends at the deadline, not a whole retry later";
  EXPECT_EQ(holder.get(holder.key.lock), held->token.hex);
}

TEST(Acquirer, UnansweringRedisIsGivenUpAfterTheLimit) {
  OwnRedis own("acquire_test:unanswered");
  own.server.kill();
  auto began = Clock::now();
  EXPECT_THROW(own.acquirer.acquire(30s), Error);
  auto took = Clock::now() - began;
  EXPECT_GE(took, 500ms);
  EXPECT_LT(took, 2s);
  EXPECT_EQ(own.heard.unanswered.size(), 1u) << "the first unanswered attempt is reported, once";
}

// A silence shorter than the limit ends in a grant; the grant ends the call, and the next call
// counts its own silence afresh, however long the first one lasted.
TEST(Acquirer, AGrantAfterASilenceLeavesTheNextCallTheWholeLimit) {
  OwnRedis own("acquire_test:grant");
  own.server.kill();
  std::thread nemesis([&] {
    std::this_thread::sleep_for(250ms);
    own.server.restart();
  });
  Acquisition got = own.acquirer.acquire(30s);
  nemesis.join();
  ASSERT_TRUE(got) << "the Redis answered again within the limit";
  EXPECT_EQ(own.lock.release(got->token), ReleaseResult::released);

  own.server.kill();
  auto began = Clock::now();
  EXPECT_THROW(own.acquirer.acquire(30s), Error);
  EXPECT_GE(Clock::now() - began, 500ms) << "the first call's silence does not count in the second";
  EXPECT_EQ(own.heard.unanswered.size(), 2u) << "each call reports its first silence";
}

// Regression: the clock of an unanswering Redis ran from its first silence ever, so a Redis that
// had missed one answer long ago was given up at its next silence, at once.
TEST(Acquirer, ARefusalRestartsTheUnansweredClock) {
  // A Redis that has just started refuses every acquisition: its answers are refusals.
  OwnRedis own("acquire_test:clock", LockOptions{.min_redis_uptime = 1h});
  own.server.kill();
  Clock::time_point silent_again;
  std::thread nemesis([&] {
    std::this_thread::sleep_for(200ms);
    own.server.restart();
    std::this_thread::sleep_for(800ms);  // refusals, for longer than the limit
    silent_again = Clock::now();
    own.server.kill();
  });
  EXPECT_THROW(own.acquirer.acquire(30s), Error);
  auto gave_up = Clock::now();
  nemesis.join();
  EXPECT_GE(gave_up - silent_again, 500ms) << "the limit counts from the silence after the last answer";
  EXPECT_EQ(own.heard.refusals, std::vector{Acquisition::Refusal::redis_too_young});
  EXPECT_EQ(own.heard.unanswered.size(), 1u) << "the first silence is reported, once";
}

}  // namespace
}  // namespace rlock
