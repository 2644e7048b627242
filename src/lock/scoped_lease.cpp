#include "rlock/scoped_lease.h"

namespace rlock {

ScopedLease& ScopedLease::operator=(ScopedLease&& other) noexcept {
  if (this != &other) {
    release();
    lock_ = other.lock_;
    lease_ = std::move(other.lease_);
    other.lease_.reset();
  }
  return *this;
}

ReleaseResult ScopedLease::release() noexcept {
  if (!lease_) return ReleaseResult::not_held;
  ReleaseResult result = lock_->release(lease_->token);
  lease_.reset();
  return result;
}

}  // namespace rlock
