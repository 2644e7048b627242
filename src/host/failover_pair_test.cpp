#include "host/failover_pair.h"

#include <string>

#include <gtest/gtest.h>

#include "rlock/error.h"
#include "lab/lab_dir.h"
#include "rlock/redis_lock.h"
#include "lab/run_log.h"
#include "host/temp_dir.h"
#include "testing/test_env.h"

namespace rlock {
namespace {

using test::error_message;

constexpr int kPort = 6450;  // and 6451: ports of this test alone

// A run in a temporary directory, for the failover's host events.
struct TempRun {
  TempRun() : dir(temp.path()) { dir.start_new_run(wall_seconds()); }
  TempDir temp;
  LabDir dir;
};

long long lock_pttl_at(const RedisAddress& address, const LockKey& key) {
  RedisConnection redis(address);
  return RedisLock(redis, key).pttl();
}

void take_lock(const RedisAddress& address, const LockKey& key) {
  RedisConnection(address).checked({"SET", key.lock, "holder", "PX", "30000"});
}

TEST(FailoverPair, ReplicaInSyncTakesOverWithTheLock) {
  TempRun run;
  LockKey key = LockKey::for_account(1);
  FailoverPair pair(kPort, run.dir.root());
  take_lock(pair.address(), key);
  pair.fail_over(key, RunLog(run.dir, Lang::en));

  EXPECT_EQ(pair.address().port, kPort);
  EXPECT_GT(lock_pttl_at(pair.address(), key), 0) << "the promoted replica answers on the primary's port";
  RedisConnection promoted(pair.address());
  EXPECT_EQ(promoted.checked({"ROLE"}).element(0).text(), "master");
  std::vector<Event> events = read_events(run.dir);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].kind, EventKind::redis_killed);
  EXPECT_GT(events[0].fields.at("pttl").get<long long>(), 0);
  EXPECT_EQ(events[1].kind, EventKind::redis_promoted);
  EXPECT_GT(events[1].fields.at("pttl").get<long long>(), 0);
}

TEST(FailoverPair, LaggingReplicaTakesOverWithoutTheLock) {
  TempRun run;
  LockKey key = LockKey::for_account(1);
  FailoverPair pair(kPort, run.dir.root());
  pair.stop_replication();
  take_lock(pair.address(), key);
  pair.fail_over(key, RunLog(run.dir, Lang::en));

  EXPECT_EQ(lock_pttl_at(pair.address(), key), -2) << "the write the replica never received is gone";
  std::vector<Event> events = read_events(run.dir);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].fields.at("pttl").get<long long>(), -2);
}

TEST(FailoverPair, PortTakenIsAnErrorNamingIt) {
  TempRun run;
  int taken = test::servers().redis.port;
  std::string message = error_message<Error>([&] { FailoverPair pair(taken, run.dir.root()); });
  EXPECT_NE(message.find(std::to_string(taken)), std::string::npos) << message;
  EXPECT_NE(message.find("did not start"), std::string::npos) << message;
}

TEST(FailoverPair, StopsItsServersWhenDestroyed) {
  TempRun run;
  { FailoverPair pair(kPort, run.dir.root()); }
  RedisAddress gone;
  gone.port = kPort;
  EXPECT_THROW(RedisConnection(gone, RedisTimeouts{std::chrono::milliseconds(200), std::chrono::milliseconds(200)}), Error);
}

}  // namespace
}  // namespace rlock
