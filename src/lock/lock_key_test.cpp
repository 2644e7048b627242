// LockKey: which Redis keys a lock uses. No server needed.
#include "rlock/lock_key.h"

#include <string>

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace rlock
