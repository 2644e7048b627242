#include "rlock/patterns/redlock.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "host/local_redis.h"
#include "host/redis_server.h"
#include "host/temp_dir.h"
#include "lab/host_events.h"
#include "lab/log_dir.h"
#include "lab/run_log.h"
#include "rlock/error.h"
#include "testing/test_env.h"

namespace rlock {
namespace {

using namespace std::chrono_literals;

constexpr int kFirstPort = 6455;  // to 6457: ports of this test alone

// Three independent servers of the test's own, and a Redlock over them.
class RedlockTest : public ::testing::Test {
 protected:
  RedlockTest() {
    for (int i = 0; i < 3; ++i) {
      servers_.push_back(std::make_unique<host::LocalRedis>(kFirstPort + i, temp_.path()));
      addresses_.push_back(servers_.back()->address());
    }
  }

  Reply lock_value(int server) {
    return servers_[static_cast<std::size_t>(server)]->connection().checked({"GET", key_.lock});
  }

  host::TempDir temp_;
  std::vector<std::unique_ptr<host::LocalRedis>> servers_;
  std::vector<RedisAddress> addresses_;
  LockKey key_ = LockKey::for_account(9700);
};

TEST_F(RedlockTest, MajorityGrantsAndOthersAreRefused) {
  Redlock a(addresses_, key_), b(addresses_, key_);
  RedlockAttempt held = a.acquire(1000ms);
  ASSERT_TRUE(held);
  EXPECT_EQ(held.granted, 3);
  EXPECT_GT(held.validity.count(), 0);
  EXPECT_LE(held.validity.count(), 1000 - 12) << "validity takes off the drift, ttl/100 + 2 ms";
  for (int i = 0; i < 3; ++i) EXPECT_EQ(lock_value(i).text(), held.token->hex);

  RedlockAttempt refused = b.acquire(1000ms);
  EXPECT_FALSE(refused);
  EXPECT_EQ(refused.granted, 0);
  EXPECT_EQ(refused.answered, 3);

  EXPECT_EQ(b.release(make_token()), 0) << "a release with another token deletes nothing";
  EXPECT_EQ(a.release(*held.token), 3);
  EXPECT_TRUE(b.acquire(1000ms));
}

TEST_F(RedlockTest, OneServerDownStillMakesAMajority) {
  servers_[1]->kill();
  Redlock lock(addresses_, key_);
  RedlockAttempt held = lock.acquire(1000ms);
  ASSERT_TRUE(held);
  EXPECT_EQ(held.granted, 2);
  EXPECT_EQ(lock.release(*held.token), 2);
}

TEST_F(RedlockTest, WithoutAMajorityTheGrantedServersAreReleased) {
  servers_[0]->kill();
  servers_[1]->kill();
  Redlock lock(addresses_, key_);
  RedlockAttempt refused = lock.acquire(1000ms);
  EXPECT_FALSE(refused);
  EXPECT_EQ(refused.granted, 1);
  EXPECT_EQ(refused.answered, 1);
  ASSERT_EQ(refused.errors.size(), 2u);
  EXPECT_NE(refused.errors[0].find(std::to_string(kFirstPort)), std::string::npos) << refused.errors[0];
  EXPECT_TRUE(lock_value(2).is_nil()) << "the one server that granted it was released";
}

TEST_F(RedlockTest, ARestartedServerIsAskedAgain) {
  Redlock lock(addresses_, key_);
  servers_[2]->restart();
  RedlockAttempt held = lock.acquire(1000ms);
  ASSERT_TRUE(held);
  EXPECT_EQ(held.granted, 3);
}

// What chaos does to Redlock under redis-restart and failover: one server crashes and comes back
// empty, and the crash is logged with the lock's PTTL before and after.
TEST_F(RedlockTest, ACrashOfOneServerIsLoggedAndForgetsItsCopyOfTheLock) {
  Redlock lock(addresses_, key_);
  ASSERT_TRUE(lock.acquire(30000ms));
  lab::LogDir dir(temp_.path() / "run");
  dir.start_new_run(lab::wall_seconds());
  host::LocalRedis& server = *servers_[0];
  lab::record_crash(lab::RunLog(dir, lab::Lang::en), host::crash_server(server.connection(), key_,
                                                                        {[&] { server.kill(); },
                                                                         [&]() -> RedisConnection& {
                                                                           server.restart();
                                                                           return server.connection();
                                                                         }}));

  EXPECT_TRUE(lock_value(0).is_nil());
  EXPECT_FALSE(lock_value(1).is_nil());
  std::vector<lab::Event> events = lab::read_events(dir);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].kind, lab::EventKind::redis_killed);
  EXPECT_GT(events[0].fields.at("pttl").get<long long>(), 0);
  EXPECT_EQ(events[1].kind, lab::EventKind::redis_started);
  EXPECT_EQ(events[1].fields.at("pttl").get<long long>(), -2);
  EXPECT_EQ(events[1].fields.at("server"), server.address().display());
}

TEST_F(RedlockTest, AcquirerWaitsForTheHolderAndSaysRefusedOnce) {
  Redlock holder(addresses_, key_), waiter(addresses_, key_);
  RedlockAttempt held = holder.acquire(500ms);
  ASSERT_TRUE(held);
  int refusals = 0;
  AcquirePolicy policy{.retry = 50ms, .deadline = std::nullopt};
  RedlockAcquirer acquirer(waiter, policy, [&](const RedlockAttempt&) { ++refusals; });
  RedlockAttempt got = acquirer.acquire(1000ms);
  ASSERT_TRUE(got) << "the holder's lock expired with its TTL";
  EXPECT_EQ(refusals, 1);
}

TEST_F(RedlockTest, TwoAcquirersDrawDifferentRetryDelaysWithinHalfToOneAndAHalfRetries) {
  Redlock first(addresses_, key_), second(addresses_, key_);
  AcquirePolicy policy{.retry = 100ms, .deadline = std::nullopt};
  RedlockAcquirer a(first, policy), b(second, policy);
  std::vector<std::chrono::microseconds> of_a, of_b;
  for (int i = 0; i < 20; ++i) of_a.push_back(a.retry_delay()), of_b.push_back(b.retry_delay());
  EXPECT_NE(of_a, of_b) << "synchronized retries would split the votes again and again";
  for (const auto& delays : {of_a, of_b}) {
    for (std::chrono::microseconds d : delays) {
      EXPECT_GE(d, 50ms);
      EXPECT_LE(d, 150ms);
    }
    auto [low, high] = std::minmax_element(delays.begin(), delays.end());
    EXPECT_GT(*high - *low, 10ms) << "the delay is not drawn anew";
  }
}

TEST_F(RedlockTest, AcquirerReturnsTheLastRefusalAtTheDeadline) {
  Redlock holder(addresses_, key_), waiter(addresses_, key_);
  ASSERT_TRUE(holder.acquire(30000ms));
  RedlockAttempt got = RedlockAcquirer(waiter, AcquirePolicy{.retry = 50ms, .deadline = 300ms}).acquire(1000ms);
  EXPECT_FALSE(got);
  EXPECT_EQ(got.answered, 3);
}

TEST_F(RedlockTest, AcquirerGivesUpWhenTooFewServersAnswerForTheLimit) {
  servers_[0]->kill();
  servers_[1]->kill();
  Redlock lock(addresses_, key_);
  auto began = std::chrono::steady_clock::now();
  AcquirePolicy policy{.retry = 50ms, .unanswered_limit = 300ms, .deadline = std::nullopt};
  std::string message = testing::error_message<Error>([&] { RedlockAcquirer(lock, policy).acquire(1000ms); });
  EXPECT_GE(std::chrono::steady_clock::now() - began, 300ms);
  EXPECT_NE(message.find("Redlock: only 1 of 3 servers answered for 0.3 s ("), std::string::npos) << message;
  EXPECT_NE(message.find(std::to_string(kFirstPort)), std::string::npos) << "it names the servers: " << message;
}

// Too few servers for a while, then a quorum again: the attempt is granted, and the next call
// counts its own silence afresh.
TEST_F(RedlockTest, AcquirerGrantedAfterASilenceGivesTheNextCallTheWholeLimit) {
  servers_[0]->kill();
  servers_[1]->kill();
  Redlock lock(addresses_, key_);
  AcquirePolicy policy{.retry = 50ms, .unanswered_limit = 500ms, .deadline = std::nullopt};
  RedlockAcquirer acquirer(lock, policy);
  std::thread nemesis([&] {
    std::this_thread::sleep_for(150ms);
    servers_[0]->restart();
    servers_[1]->restart();
  });
  RedlockAttempt got = acquirer.acquire(1000ms);
  nemesis.join();
  ASSERT_TRUE(got) << "a quorum answered again within the limit";
  // A random retry may fall between the two restarts: a quorum granted it, maybe not all three.
  EXPECT_GE(lock.release(*got.token), lock.quorum());

  servers_[0]->kill();
  servers_[1]->kill();
  auto began = std::chrono::steady_clock::now();
  EXPECT_THROW(acquirer.acquire(1000ms), Error);
  EXPECT_GE(std::chrono::steady_clock::now() - began, 500ms) << "the first call's silence does not count";
}

TEST(Redlock, NeedsThreeServers) {
  std::vector<RedisAddress> two(2);
  std::string message = testing::error_message<UsageError>([&] { Redlock lock(two, LockKey::for_account(9700)); });
  EXPECT_NE(message.find("at least 3"), std::string::npos) << message;
}

}  // namespace
}  // namespace rlock
