// The Redis keys of one lock, derived from one name.
//
// LockKey::named("orders:42") locks the key `orders:42`; its fence counter is `{orders:42}:fence`
// and every release is announced on the Pub/Sub channel `orders:42:released` (the released token
// as the message), for waiters that would rather be told than poll. The counter's hash tag is the
// lock key's whole name, so both keys hash to one slot and the fenced acquisition script can touch
// both on a Redis Cluster too; a name that already carries a hash tag (`{user:7}:cart`) keeps it,
// and the counter is `{user:7}:cart:fence`. An account's lock is the name `lock:account:N`.
// The queue of WaitMode::queue (release_waiter.h) sits beside the counter, under the same tag: the
// tickets in order (`{orders:42}:queue`, a list), their deadlines (`{orders:42}:queue:deadlines`,
// a sorted set), and each ticket's wake-up channel (`orders:42:wake:` then the ticket); with WaitMode::handoff also
// each ticket's claim, the token the lock is handed over to (`{orders:42}:queue:claims`, a hash).
// A plain value type; thread-safe.
#pragma once

#include <string>

namespace rlock {

struct LockKey {
  std::string lock;
  std::string fence_counter;
  std::string released_channel;
  std::string queue;
  std::string queue_deadlines;
  std::string wake_channel_prefix;
  std::string queue_claims;

  // Throws rlock::UsageError for an empty name, and for a `}` outside a hash tag (no other key
  // could share the name's slot).
  static LockKey named(const std::string& name);
  // named("lock:account:N")
  static LockKey for_account(long account);
};

// A fencing token: a number that grows with every fenced acquisition of one lock.
struct Fence {
  long long value = 0;
};

}  // namespace rlock
