// RedisLock against the real Redis at REDIS_URL. Each test owns the keys of one account (9001+),
// deleted before and after it.
#include "rlock/redis_lock.h"

#include <chrono>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "rlock/lock_key.h"
#include "rlock/redis_connection.h"
#include "rlock/token.h"
#include "testing/test_env.h"

namespace rlock {
namespace {

using namespace std::chrono_literals;
using testing::TestLock;

TEST(RedisLock, SecondAcquireWhileHeldIsEmpty) {
  TestLock t(9001);
  auto first = t.lock.acquire(30s);
  ASSERT_TRUE(first);
  EXPECT_FALSE(first->fence);
  EXPECT_EQ(t.get(t.key.lock), first->token.hex);
  EXPECT_FALSE(t.lock.acquire(30s));
  EXPECT_EQ(t.get(t.key.lock), first->token.hex);
}

TEST(RedisLock, ReleaseWithAForeignTokenLeavesTheKey) {
  TestLock t(9002);
  auto lease = t.lock.acquire(30s);
  ASSERT_TRUE(lease);
  EXPECT_EQ(t.lock.release(make_token()), ReleaseResult::not_held);
  EXPECT_EQ(t.get(t.key.lock), lease->token.hex);
}

TEST(RedisLock, ReleaseWithTheOwnTokenDeletesTheKey) {
  TestLock t(9003);
  auto lease = t.lock.acquire(30s);
  ASSERT_TRUE(lease);
  EXPECT_EQ(t.lock.release(lease->token), ReleaseResult::released);
  EXPECT_EQ(t.get(t.key.lock), std::nullopt);
  EXPECT_EQ(t.lock.pttl(), -2);
  EXPECT_EQ(t.lock.release(lease->token), ReleaseResult::not_held);  // twice: the second finds nothing
}

TEST(RedisLock, ExtendWithAForeignTokenKeepsTheTtl) {
  TestLock t(9004);
  auto lease = t.lock.acquire(100s);
  ASSERT_TRUE(lease);
  ExtendResult result = t.lock.extend(make_token(), 1s);
  EXPECT_FALSE(result.extended);
  EXPECT_GT(result.pttl_ms, 1000);  // still the 100 s of the acquisition, not the 1 s asked for
  EXPECT_GT(t.lock.pttl(), 1000);
  EXPECT_EQ(t.get(t.key.lock), lease->token.hex);
}

TEST(RedisLock, ExtendWithTheOwnTokenSetsTheNewTtl) {
  TestLock t(9005);
  auto lease = t.lock.acquire(30s);
  ASSERT_TRUE(lease);
  ExtendResult result = t.lock.extend(lease->token, 120s);
  EXPECT_TRUE(result.extended);
  EXPECT_GT(result.pttl_ms, 30000);  // above the old TTL, so the extension took
  EXPECT_LE(result.pttl_ms, 120000);
  long long pttl = t.lock.pttl();
  EXPECT_GT(pttl, 0);
  EXPECT_LE(pttl, 120000);
}

TEST(RedisLock, ExtendOfAMissingLockReportsPttlMinus2) {
  TestLock t(9006);
  ExtendResult result = t.lock.extend(make_token(), 1s);
  EXPECT_FALSE(result.extended);
  EXPECT_EQ(result.pttl_ms, -2);
  EXPECT_EQ(t.get(t.key.lock), std::nullopt);
}

TEST(RedisLock, FencesGrowAcrossAcquisitions) {
  TestLock t(9007);
  for (long long expected = 1; expected <= 3; ++expected) {
    auto lease = t.lock.acquire_fenced(30s);
    ASSERT_TRUE(lease);
    ASSERT_TRUE(lease->fence);
    EXPECT_EQ(lease->fence->value, expected);
    EXPECT_EQ(t.lock.release(lease->token), ReleaseResult::released);
  }
}

TEST(RedisLock, BusyFencedAcquireDoesNotIncrementTheCounter) {
  TestLock t(9008);
  auto first = t.lock.acquire_fenced(30s);
  ASSERT_TRUE(first && first->fence);
  EXPECT_EQ(first->fence->value, 1);
  EXPECT_FALSE(t.lock.acquire_fenced(30s));
  EXPECT_FALSE(t.lock.acquire_fenced(30s));
  EXPECT_EQ(t.get(t.key.fence_counter), "1");
  EXPECT_EQ(t.get(t.key.lock), first->token.hex);

  EXPECT_EQ(t.lock.release(first->token), ReleaseResult::released);
  auto second = t.lock.acquire_fenced(30s);
  ASSERT_TRUE(second && second->fence);
  EXPECT_EQ(second->fence->value, 2);
}

TEST(RedisLock, HoldsTellsTheOwnTokenFromAForeignOne) {
  TestLock t(9012);
  auto lease = t.lock.acquire(30s);
  ASSERT_TRUE(lease);
  Ownership own = t.lock.holds(lease->token);
  EXPECT_TRUE(own.held);
  EXPECT_GT(own.pttl_ms, 0);
  EXPECT_FALSE(t.lock.holds(make_token()).held);
  ASSERT_EQ(t.lock.release(lease->token), ReleaseResult::released);
  Ownership gone = t.lock.holds(lease->token);
  EXPECT_FALSE(gone.held);
  EXPECT_EQ(gone.pttl_ms, -2);
}

// The restart guard: a server younger than min_redis_uptime grants nothing and sets nothing.
TEST(RedisLock, RestartGuardRefusesAYoungServer) {
  TestLock t(9013);
  RedisLock guarded(t.redis, t.key, LockOptions{.min_redis_uptime = std::chrono::hours(24 * 365)});
  Acquisition refused = guarded.acquire_fenced(30s);
  EXPECT_FALSE(refused);
  EXPECT_EQ(refused.refusal, Acquisition::Refusal::redis_too_young);
  EXPECT_EQ(refused.redis_uptime_s, redis_uptime_seconds(t.redis));
  EXPECT_EQ(t.get(t.key.lock), std::nullopt);
  EXPECT_EQ(t.get(t.key.fence_counter), std::nullopt);
}

// The test Redis has no replica: WAIT 1 sees none, and the lock it had set is released again.
TEST(RedisLock, WaitWithTooFewReplicasReleasesAndRefuses) {
  TestLock t(9014);
  RedisLock waiting(t.redis, t.key, LockOptions{.wait_replicas = 1, .wait_timeout = 10ms});
  Acquisition refused = waiting.acquire(30s);
  EXPECT_FALSE(refused);
  EXPECT_EQ(refused.refusal, Acquisition::Refusal::under_replicated);
  EXPECT_EQ(refused.replicas_acked, 0);
  EXPECT_EQ(t.get(t.key.lock), std::nullopt);
  EXPECT_TRUE(t.lock.acquire(30s)) << "the refused lock was left behind";
}

// A restarted Redis has an empty script cache: every script falls back from EVALSHA to EVAL.
TEST(RedisLock, ScriptsStillWorkAfterScriptFlush) {
  TestLock t(9009);
  auto lease = t.lock.acquire_fenced(30s);  // loads each script once
  ASSERT_TRUE(lease);
  ASSERT_TRUE(t.lock.extend(lease->token, 30s).extended);
  ASSERT_EQ(t.lock.release(lease->token), ReleaseResult::released);

  t.redis.checked({"SCRIPT", "FLUSH"});
  lease = t.lock.acquire_fenced(30s);
  ASSERT_TRUE(lease && lease->fence);
  EXPECT_EQ(lease->fence->value, 2);

  t.redis.checked({"SCRIPT", "FLUSH"});
  ExtendResult extended = t.lock.extend(lease->token, 60s);
  EXPECT_TRUE(extended.extended);
  EXPECT_GT(extended.pttl_ms, 30000);

  t.redis.checked({"SCRIPT", "FLUSH"});
  EXPECT_EQ(t.lock.release(lease->token), ReleaseResult::released);
  EXPECT_EQ(t.get(t.key.lock), std::nullopt);
}

}  // namespace
}  // namespace rlock
