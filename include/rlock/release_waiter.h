// How a client that was refused a busy lock waits before it asks again.
//
// poll, the article's way: sleep the retry interval (0.1 s), whatever happens meanwhile. notify:
// subscribe to the lock's released_channel (lock_key.h) before the first attempt, then wait until
// another holder's release is announced there, and never longer than the retry interval, so a lost
// message, a lost subscription or a lock that expires instead of being released cannot strand the
// waiter. queue, the fair way (as Redisson's fair lock): the waiter holds a ticket
// (RedisLock::acquire_queued puts it in the lock's queue when refused) and subscribes to the
// ticket's own wake-up channel, which a release signals only when the ticket heads the queue; it
// waits for that, and never longer than the retry interval either (each attempt renews the ticket,
// whose TTL is 5 retry intervals: a waiter that stopped asking is skipped after it). Only the head
// wakes, so waiters are served in order and do not race. handoff, queue's way without the last round trip: the
// release itself gives the lock to the head's claim (RedisLock::acquire_handoff) and tells it alone, with the
// token and the fence, on the ticket's channel; the waiter wakes holding the lock. A waiter subscribes before the
// attempt that may queue it (ready()), so that no release between the two goes unseen. The subscription has a
// connection of its own (a subscribed connection takes no other command). Not thread-safe: one per client.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

#include <map>
#include <string>
#include <string_view>

#include "rlock/lock_key.h"
#include "rlock/redis_address.h"
#include "rlock/redis_connection.h"
#include "rlock/redis_lock.h"

namespace rlock {

// "poll", "notify", "queue", "handoff". Not to_string: CLI11 would take that for its own, for options of this type.
std::string_view wait_mode_name(WaitMode mode);
// Every mode by its name, for the command line.
std::map<std::string, WaitMode> wait_modes_by_name();

class ReleaseWaiter {
 public:
  // notify: subscribes now, so that no release after this point goes unseen. Never throws: when
  // Redis does not answer, the waiter sleeps the interval and subscribes again at the next wait.
  ReleaseWaiter(WaitMode mode, const RedisAddress& address, const LockKey& key, std::chrono::milliseconds retry);

  // The ticket of a queue or handoff waiter, for RedisLock::acquire_queued or acquire_handoff; empty otherwise.
  const QueueTicket& ticket() const { return ticket_; }

  // Subscribes when a subscription was lost (not with poll): called before each attempt. Never throws; false when
  // Redis did not answer (the wait then sleeps its interval).
  bool ready() noexcept;

  // handoff: waits until a release hands the lock over to `token` (its message names it), or `retry` has passed,
  // or `latest` has come. The fence the message carried (0 when the claim was not fenced), or none. Never throws.
  std::optional<long long> wait_for_handover(
      const Token& token, std::chrono::steady_clock::time_point latest = std::chrono::steady_clock::time_point::max());

  // queue, handoff: waits until this ticket heads the queue at a release (`own` is not used). Otherwise:
  // waits until a release of a token other than `own` (a release of this client's own, whose
  // announcement is no news to it) is announced, or `retry` has passed, or `latest` has come.
  // Never throws.
  void wait(std::string_view own = {},
            std::chrono::steady_clock::time_point latest = std::chrono::steady_clock::time_point::max());

 private:
  bool subscribe() noexcept;
  // Waits on the subscription until `woken` says a message is the one, or `deadline`.
  template <typename Woken>
  void receive_until(std::chrono::steady_clock::time_point deadline, Woken&& woken);

  WaitMode mode_;
  RedisAddress address_;
  std::string channel_;
  std::chrono::milliseconds retry_;
  QueueTicket ticket_;
  std::optional<RedisConnection> subscription_;  // notify, while subscribed
};

}  // namespace rlock
