#include "lock/patience.h"

namespace rlock {

Patience::Patience(const AcquirePolicy& policy, Clock::time_point start)
    : limit_(policy.unanswered_limit),
      deadline_(policy.deadline ? start + *policy.deadline : Clock::time_point::max()) {}

bool Patience::unanswered(Clock::time_point now) {
  if (!unanswered_since_) {
    unanswered_since_ = now;
    return false;
  }
  return now - *unanswered_since_ > limit_;
}

}  // namespace rlock
