// ScopedLease against the real Redis at REDIS_URL (accounts 9851+).
#include "rlock/scoped_lease.h"

#include <chrono>
#include <thread>
#include <utility>

#include <gtest/gtest.h>

#include "testing/test_env.h"

namespace rlock {
namespace {

using namespace std::chrono_literals;
using testing::TestLock;

TEST(ScopedLease, ReleasesAtScopeExit) {
  TestLock t(9851);
  {
    Acquisition got = t.lock.acquire(30s);
    ASSERT_TRUE(got);
    ScopedLease lease(t.lock, *got.lease);
    EXPECT_EQ(t.get(t.key.lock), lease.lease().token.hex);
  }
  EXPECT_EQ(t.get(t.key.lock), std::nullopt);
}

TEST(ScopedLease, AbandonLeavesTheKey) {
  TestLock t(9852);
  Acquisition got = t.lock.acquire(30s);
  ASSERT_TRUE(got);
  {
    ScopedLease lease(t.lock, *got.lease);
    lease.abandon();
    EXPECT_FALSE(lease.active());
  }
  EXPECT_EQ(t.get(t.key.lock), got->token.hex);
}

TEST(ScopedLease, ReleaseReportsNotHeldWhenTheKeyExpired) {
  TestLock t(9853);
  Acquisition got = t.lock.acquire(100ms);
  ASSERT_TRUE(got);
  ScopedLease lease(t.lock, *got.lease);
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(lease.release(), ReleaseResult::not_held);
  EXPECT_FALSE(lease.active());
  EXPECT_EQ(lease.release(), ReleaseResult::not_held) << "a second release asks nothing";
}

TEST(ScopedLease, MovingHandsTheLeaseOverAndReleasesOnce) {
  TestLock t(9854);
  Acquisition got = t.lock.acquire(30s);
  ASSERT_TRUE(got);
  ScopedLease first(t.lock, *got.lease);
  ScopedLease second(std::move(first));
  EXPECT_FALSE(first.active());  // NOLINT(bugprone-use-after-move): a moved-from lease holds nothing
  EXPECT_TRUE(second.active());
  EXPECT_EQ(first.release(), ReleaseResult::not_held);
  EXPECT_EQ(t.get(t.key.lock), got->token.hex);
  EXPECT_EQ(second.release(), ReleaseResult::released);
}

}  // namespace
}  // namespace rlock
