// The Redis keys of one account's lock.
//
// The lock is `lock:account:N`; its fence counter is `{lock:account:N}:fence`. The counter's hash tag
// is the lock key's whole name, so both keys hash to one slot and the fenced acquisition script can
// touch both on a Redis Cluster too. A plain value type; thread-safe.
#pragma once

#include <string>

namespace rlock {

struct LockKey {
  std::string lock;
  std::string fence_counter;

  static LockKey for_account(long account);
};

// A fencing token: a number that grows with every fenced acquisition of one lock.
struct Fence {
  long long value = 0;
};

}  // namespace rlock
