// The Redis keys of one account's lock.
//
// The lock is `lock:account:N`; its fence counter is `{lock:account:N}:fence`. The counter's hash tag
// is the lock key's whole name, so both keys hash to one slot and the fenced acquisition script can
// touch both on a Redis Cluster too. Every release is announced on the Pub/Sub channel
// `lock:account:N:released` (the released token as the message), for waiters that would rather be
// told than poll. A plain value type; thread-safe.
#pragma once

#include <string>

namespace rlock {

struct LockKey {
  std::string lock;
  std::string fence_counter;
  std::string released_channel;

  static LockKey for_account(long account);
};

// A fencing token: a number that grows with every fenced acquisition of one lock.
struct Fence {
  long long value = 0;
};

}  // namespace rlock
