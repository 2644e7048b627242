// A held lock given back at the end of its scope, like std::lock_guard.
//
// ScopedLease owns one lease of a RedisLock: its destructor releases it (token-checked, as
// RedisLock::release) unless release() or abandon() was called first. The destructor never throws:
// a release Redis did not answer is dropped, and the lock expires with its TTL. Move-only; a
// moved-from lease holds nothing. Borrows the lock, which must outlive it. Not thread-safe: use it
// on the thread of its lock.
#pragma once

#include <optional>

#include "rlock/redis_lock.h"

namespace rlock {

class ScopedLease {
 public:
  ScopedLease(RedisLock& lock, Lease lease) : lock_(&lock), lease_(std::move(lease)) {}
  ~ScopedLease() { release(); }
  ScopedLease(ScopedLease&& other) noexcept : lock_(other.lock_), lease_(std::move(other.lease_)) {
    other.lease_.reset();
  }
  // Releases the lease this one held, then takes the other's.
  ScopedLease& operator=(ScopedLease&& other) noexcept;
  ScopedLease(const ScopedLease&) = delete;
  ScopedLease& operator=(const ScopedLease&) = delete;

  // Releases now: released, not_held (the lock expired and maybe went to another client; also
  // when nothing is held any more) or unknown (lock().last_release_error() says why). Never throws.
  ReleaseResult release() noexcept;
  // Gives the lease up without a release: the key stays until its TTL ends (a process handing the
  // lock to another, a test of expiry).
  void abandon() noexcept { lease_.reset(); }

  // Whether it still holds a lease (neither released, abandoned nor moved from).
  bool active() const { return lease_.has_value(); }
  // The lease; only while active().
  const Lease& lease() const { return *lease_; }
  RedisLock& lock() const { return *lock_; }

 private:
  RedisLock* lock_;
  std::optional<Lease> lease_;
};

}  // namespace rlock
