// LockKey: which Redis keys a lock uses. No server needed.
#include "rlock/lock_key.h"

#include <string>

#include <gtest/gtest.h>

#include "rlock/error.h"

namespace rlock {
namespace {

// What Redis Cluster hashes: the content of the first {...} when it is not empty, else the whole key.
std::string hashed_part(const std::string& key) {
  auto open = key.find('{');
  if (open == std::string::npos) return key;
  auto close = key.find('}', open + 1);
  if (close == std::string::npos || close == open + 1) return key;
  return key.substr(open + 1, close - open - 1);
}

TEST(LockKey, FenceCounterHashesToTheLockKeysSlot) {
  for (long account : {1L, 9010L, 123456789L}) {
    LockKey key = LockKey::for_account(account);
    EXPECT_EQ(key.lock, "lock:account:" + std::to_string(account));
    EXPECT_NE(key.fence_counter, key.lock);
    EXPECT_EQ(hashed_part(key.fence_counter), key.lock) << key.fence_counter;
    EXPECT_EQ(hashed_part(key.fence_counter), hashed_part(key.lock)) << key.fence_counter;
  }
}

TEST(LockKey, NamedDerivesTheFenceAndChannelFromTheName) {
  LockKey key = LockKey::named("orders:42");
  EXPECT_EQ(key.lock, "orders:42");
  EXPECT_EQ(key.fence_counter, "{orders:42}:fence");
  EXPECT_EQ(key.released_channel, "orders:42:released");
  EXPECT_EQ(hashed_part(key.fence_counter), hashed_part(key.lock));
}

TEST(LockKey, ForAccountIsTheNameLockAccountN) {
  LockKey account = LockKey::for_account(7);
  LockKey named = LockKey::named("lock:account:7");
  EXPECT_EQ(account.lock, named.lock);
  EXPECT_EQ(account.fence_counter, "{lock:account:7}:fence");
  EXPECT_EQ(account.released_channel, "lock:account:7:released");
  EXPECT_EQ(account.fence_counter, named.fence_counter);
  EXPECT_EQ(account.released_channel, named.released_channel);
}

TEST(LockKey, ANameWithAHashTagKeepsItForTheFence) {
  LockKey key = LockKey::named("{user:7}:cart");
  EXPECT_EQ(key.fence_counter, "{user:7}:cart:fence");
  EXPECT_EQ(hashed_part(key.fence_counter), "user:7");
  EXPECT_EQ(hashed_part(key.lock), "user:7");
}

TEST(LockKey, ACloseBraceOutsideAHashTagIsAUsageError) {
  EXPECT_THROW(LockKey::named("a}b"), UsageError) << "{a}b}:fence would hash `a`, not `a}b`";
  EXPECT_THROW(LockKey::named("{}x"), UsageError) << "an empty {} is no hash tag";
}

TEST(LockKey, AnEmptyNameIsAUsageError) { EXPECT_THROW(LockKey::named(""), UsageError); }

}  // namespace
}  // namespace rlock
