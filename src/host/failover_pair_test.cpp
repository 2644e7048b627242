#include "host/failover_pair.h"

#include <string>

#include <gtest/gtest.h>

#include "host/temp_dir.h"
#include "rlock/error.h"
#include "rlock/redis_lock.h"
#include "testing/test_env.h"

namespace rlock::host {
namespace {

using testing::error_message;

constexpr int kPort = 6450;  // and 6451: ports of this test alone

long long lock_pttl_at(const RedisAddress& address, const LockKey& key) {
  RedisConnection redis(address);
  return RedisLock(redis, key).pttl();
}

// Sets the lock on the primary; with `replicated`, returns once the replica has it too (replication
// is asynchronous: a failover right after the SET may otherwise beat it).
void take_lock(const RedisAddress& address, const LockKey& key, bool replicated) {
  RedisConnection redis(address);
  redis.checked({"SET", key.lock, "holder", "PX", "30000"});
  if (replicated) {
    ASSERT_EQ(redis.checked({"WAIT", "1", "1000"}).integer(), 1);
  }
}

TEST(FailoverPair, ReplicaInSyncTakesOverWithTheLock) {
  TempDir temp;
  LockKey key = LockKey::for_account(1);
  FailoverPair pair(kPort, temp.path());
  take_lock(pair.address(), key, /*replicated=*/true);
  CrashReport failover = pair.fail_over(key);

  EXPECT_EQ(pair.address().port, kPort);
  EXPECT_GT(lock_pttl_at(pair.address(), key), 0) << "the promoted replica answers on the primary's port";
  RedisConnection promoted(pair.address());
  EXPECT_EQ(promoted.checked({"ROLE"}).element(0).text(), "master");
  EXPECT_EQ(failover.server, pair.address().display());
  EXPECT_GT(failover.pttl_before, 0);
  ASSERT_TRUE(failover.successor);
  EXPECT_TRUE(failover.successor->promoted);
  EXPECT_GT(failover.successor->pttl, 0);
}

TEST(FailoverPair, LaggingReplicaTakesOverWithoutTheLock) {
  TempDir temp;
  LockKey key = LockKey::for_account(1);
  FailoverPair pair(kPort, temp.path());
  pair.stop_replication();
  take_lock(pair.address(), key, /*replicated=*/false);
  CrashReport failover = pair.fail_over(key);

  EXPECT_EQ(lock_pttl_at(pair.address(), key), -2) << "the write the replica never received is gone";
  ASSERT_TRUE(failover.successor);
  EXPECT_EQ(failover.successor->pttl, -2);
  ASSERT_TRUE(pair.lock_reached_replica());
  EXPECT_FALSE(*pair.lock_reached_replica());
}

// Redisson's lock is a hash: the pair tells whether it reached the replica all the same.
TEST(FailoverPair, AHashLockIsComparedAsAnyOther) {
  TempDir temp;
  LockKey key = LockKey::for_account(1);
  FailoverPair pair(kPort, temp.path());
  RedisConnection redis(pair.address());
  redis.checked({"HSET", key.lock, "holder:1", "1"});
  ASSERT_EQ(redis.checked({"WAIT", "1", "1000"}).integer(), 1);
  pair.fail_over(key);
  ASSERT_TRUE(pair.lock_reached_replica());
  EXPECT_TRUE(*pair.lock_reached_replica());
}

TEST(FailoverPair, PortTakenIsAnErrorNamingIt) {
  TempDir temp;
  int taken = testing::servers().redis.port;
  std::string message = error_message<Error>([&] { FailoverPair pair(taken, temp.path()); });
  EXPECT_NE(message.find(std::to_string(taken)), std::string::npos) << message;
  EXPECT_NE(message.find("did not start"), std::string::npos) << message;
}

TEST(FailoverPair, StopsItsServersWhenDestroyed) {
  TempDir temp;
  { FailoverPair pair(kPort, temp.path()); }
  RedisAddress gone;
  gone.port = kPort;
  EXPECT_THROW(RedisConnection(gone, RedisTimeouts{std::chrono::milliseconds(200), std::chrono::milliseconds(200)}),
               Error);
}

// The replica in the primary's place crashes and starts again through its own launcher: on the
// primary's port, a primary, empty, and nothing on Redis's default port.
TEST(FailoverPair, ARestartAfterTheFailoverComesBackOnThePrimarysPort) {
  TempDir temp;
  LockKey key = LockKey::for_account(1);
  FailoverPair pair(kPort, temp.path());
  take_lock(pair.address(), key, /*replicated=*/true);
  pair.fail_over(key);
  CrashReport restart = pair.restart(key);
  ASSERT_TRUE(restart.successor.has_value());
  EXPECT_EQ(restart.successor->pttl, -2);  // the key gone with the crash
  RedisConnection redis(pair.address());
  EXPECT_EQ(redis.checked({"ROLE"}).element(0).text(), "master");
  RedisAddress replica_port;
  replica_port.port = kPort + 1;
  EXPECT_THROW(RedisConnection{replica_port}, Error);  // the promoted replica left its own port
}

}  // namespace
}  // namespace rlock::host
