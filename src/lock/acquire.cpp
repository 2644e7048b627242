#include "rlock/acquire.h"

#include "lock/patience.h"

namespace rlock {

Acquirer::Acquirer(RedisLock& lock, const RedisAddress& address, AcquirePolicy policy, AcquireObserver observer)
    : lock_(lock),
      policy_(policy),
      observer_(std::move(observer)),
      waiter_(policy.wait, address, lock.key(), policy.retry) {}

Acquisition Acquirer::acquire(std::chrono::milliseconds ttl) {
  if (policy_.wait == WaitMode::queue)
    return keep_asking([&] { return lock_.acquire_queued(ttl, waiter_.ticket(), false); });
  return keep_asking([&] { return lock_.acquire(ttl); });
}

Acquisition Acquirer::acquire_fenced(std::chrono::milliseconds ttl) {
  if (policy_.wait == WaitMode::queue)
    return keep_asking([&] { return lock_.acquire_queued(ttl, waiter_.ticket(), true); });
  return keep_asking([&] { return lock_.acquire_fenced(ttl); });
}

template <typename Attempt>
Acquisition Acquirer::keep_asking(Attempt&& attempt) {
  Patience patience(policy_);
  unsigned said = 0;  // a bit per Acquisition::Refusal already reported
  bool said_unanswered = false;
  for (;;) {
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
    waiter_.wait({}, patience.deadline());
  }
}

}  // namespace rlock
