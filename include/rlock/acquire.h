// The acquisition policy: what a client does until it holds a lock, gives up, or runs out of time.
//
// While the lock is refused (busy, or one of LockOptions' safeguards), it asks again after each
// wait: `retry`, or with WaitMode::notify until another holder's release is announced and `retry` at
// the latest (release_waiter.h). With WaitMode::queue every attempt is RedisLock::acquire_queued with the
// waiter's ticket: the lock goes to the waiters in the order they were first refused. With WaitMode::handoff every
// attempt is RedisLock::acquire_handoff with the ticket and one token for the whole call, and a release hands the
// lock over in that order: the call returns as soon as the waiter is told, with no attempt of its own. A waiter
// told only after the lease may have run out (the last attempt's start plus the ticket's TTL or the lock's TTL,
// the shorter: it was paused) releases it at once and asks again; one that gives up at its deadline leaves the
// queue, then releases its token, in case the lock was handed over meanwhile. A Redis that does not answer
// (restarting, failing over) is asked again for up to `unanswered_limit`, counted from the first attempt it left
// unanswered since its last answer: a refusal starts the count again, a grant ends the call, and each call counts its
// own. If a lost acquisition was in fact granted, that lock only expires with its TTL (every
// attempt draws a new token). An optional deadline bounds the whole call. The observer hears each
// refusal reason the first time it is given, and the first attempt left unanswered, on the
// calling thread.
// The Acquirer borrows the lock, which must outlive it, and owns its ReleaseWaiter (with notify, a
// subscribed connection of its own). Not thread-safe: one per client, like the lock it drives.
#pragma once

#include <chrono>
#include <functional>
#include <optional>

#include "rlock/error.h"
#include "rlock/redis_address.h"
#include "rlock/redis_lock.h"
#include "rlock/release_waiter.h"

namespace rlock {

struct AcquirePolicy {
  std::chrono::milliseconds retry{100};  // how long to wait before asking again for a refused lock
  WaitMode wait = WaitMode::poll;
  std::chrono::milliseconds unanswered_limit{5000};
  std::optional<std::chrono::milliseconds> deadline;  // from the call's start; none: no bound
};

struct AcquireObserver {
  std::function<void(const Acquisition& refused)> refused;  // once per Acquisition::Refusal
  std::function<void(const Error& error)> unanswered;       // once per call
};

class Acquirer {
 public:
  // With WaitMode::notify, subscribes to the lock's released channel at `address` now; never
  // throws for it (release_waiter.h).
  Acquirer(RedisLock& lock, const RedisAddress& address, AcquirePolicy policy = {}, AcquireObserver observer = {});

  // A granted Acquisition; or, when the deadline came first, the last refusal (no lease). Throws
  // the last Error when Redis left every attempt unanswered for unanswered_limit, or at the deadline.
  Acquisition acquire(std::chrono::milliseconds ttl);
  // The same with RedisLock::acquire_fenced: a granted lease carries a fence.
  Acquisition acquire_fenced(std::chrono::milliseconds ttl);

 private:
  template <typename Attempt>
  Acquisition keep_asking(Attempt&& attempt);
  // WaitMode::handoff's acquisition, fenced or not.
  Acquisition wait_for_handover(std::chrono::milliseconds ttl, bool fenced);
  // Asks with `attempt` until granted; between attempts, `wait` (given the Patience) waits, and returns an
  // Acquisition to end the call with, or none to ask again.
  template <typename Attempt, typename Wait>
  Acquisition keep_asking(Attempt&& attempt, Wait&& wait);

  RedisLock& lock_;
  AcquirePolicy policy_;
  AcquireObserver observer_;
  ReleaseWaiter waiter_;
};

}  // namespace rlock
