#include "rlock/acquire.h"

#include <algorithm>

#include "lock/patience.h"

namespace rlock {

Acquirer::Acquirer(RedisLock& lock, const RedisAddress& address, AcquirePolicy policy, AcquireObserver observer)
    : lock_(lock),
      policy_(policy),
      observer_(std::move(observer)),
      waiter_(policy.wait, address, lock.key(), policy.retry) {}

Acquisition Acquirer::acquire(std::chrono::milliseconds ttl) {
  if (policy_.wait == WaitMode::handoff) return wait_for_handover(ttl, false);
  if (policy_.wait == WaitMode::queue)
    return keep_asking([&] { return lock_.acquire_queued(ttl, waiter_.ticket(), false); });
  return keep_asking([&] { return lock_.acquire(ttl); });
}

Acquisition Acquirer::acquire_fenced(std::chrono::milliseconds ttl) {
  if (policy_.wait == WaitMode::handoff) return wait_for_handover(ttl, true);
  if (policy_.wait == WaitMode::queue)
    return keep_asking([&] { return lock_.acquire_queued(ttl, waiter_.ticket(), true); });
  return keep_asking([&] { return lock_.acquire_fenced(ttl); });
}

template <typename Attempt>
Acquisition Acquirer::keep_asking(Attempt&& attempt) {
  return keep_asking(std::forward<Attempt>(attempt), [&](const Patience& patience) -> std::optional<Acquisition> {
    waiter_.wait({}, patience.deadline());
    return std::nullopt;
  });
}

Acquisition Acquirer::wait_for_handover(std::chrono::milliseconds ttl, bool fenced) {
  using Clock = std::chrono::steady_clock;
  Token token = make_token();
  const Acquisition given_up{std::nullopt, Acquisition::Refusal::busy, 0, 0};  // at the deadline, still busy
  Clock::time_point asked;  // the last attempt's start: a lease handed over after it lasts `ttl` from then at least
  auto attempt = [&] {
    asked = Clock::now();
    return lock_.acquire_handoff(ttl, waiter_.ticket(), token, fenced);
  };
  auto wait = [&](const Patience& patience) -> std::optional<Acquisition> {
    std::optional<long long> fence = waiter_.wait_for_handover(token, patience.deadline());
    if (!fence) return patience.past_deadline() ? std::optional(given_up) : std::nullopt;
    bool fresh = Clock::now() < asked + std::min(waiter_.ticket().ttl, ttl);
    if (fresh && !patience.past_deadline()) {
      return lock_.handed_over(Lease{token, fenced ? std::optional<Fence>(Fence{*fence}) : std::nullopt});
    }
    lock_.release(token);  // told too late (paused): the lease may have run out; it goes on at once
    return patience.past_deadline() ? std::optional(given_up) : std::nullopt;
  };
  Acquisition acquisition = keep_asking(attempt, wait);
  if (!acquisition) {  // given up: out of the queue first, then a lock handed over meanwhile goes on
    lock_.leave_queue(waiter_.ticket());
    lock_.release(token);
  }
  return acquisition;
}

template <typename Attempt, typename Wait>
Acquisition Acquirer::keep_asking(Attempt&& attempt, Wait&& wait) {
  Patience patience(policy_);
  unsigned said = 0;  // a bit per Acquisition::Refusal already reported
  bool said_unanswered = false;
  for (;;) {
    waiter_.ready();  // subscribed before the attempt that may queue it: no release in between goes unseen
    try {
      Acquisition acquisition = attempt();
      if (acquisition) return acquisition;
      patience.answered();
      unsigned reason = 1u << static_cast<unsigned>(acquisition.refusal);
      if ((said & reason) == 0 && observer_.refused) observer_.refused(acquisition);
      said |= reason;
      if (patience.past_deadline()) return acquisition;
    } catch (const Error& e) {
      if (patience.unanswered() || patience.past_deadline()) throw;
      if (!said_unanswered && observer_.unanswered) observer_.unanswered(e);
      said_unanswered = true;
    }
    if (std::optional<Acquisition> ended = wait(patience)) return std::move(*ended);
  }
}

}  // namespace rlock
