// How long an acquisition loop has been kept waiting: since when its server stopped answering, and
// the call's deadline. Shared by the Acquirer (acquire.h) and the RedlockAcquirer
// (rlock/patterns/redlock.h). Internal to the lock library; a value per call, not thread-safe.
#pragma once

#include <chrono>
#include <optional>

#include "rlock/acquire.h"

namespace rlock {

class Patience {
 public:
  using Clock = std::chrono::steady_clock;

  explicit Patience(const AcquirePolicy& policy, Clock::time_point start = Clock::now());

  // An attempt was answered (granted or refused).
  void answered() { unanswered_since_.reset(); }
  // An attempt at `now` got no answer. True when the first of the unanswered attempts since the
  // last answer is more than the limit ago: time to give up.
  bool unanswered(Clock::time_point now = Clock::now());
  bool past_deadline(Clock::time_point now = Clock::now()) const { return now >= deadline_; }
  // When the call must end; time_point::max() when it has no deadline.
  Clock::time_point deadline() const { return deadline_; }

 private:
  std::chrono::milliseconds limit_;
  Clock::time_point deadline_;
  std::optional<Clock::time_point> unanswered_since_;
};

}  // namespace rlock
