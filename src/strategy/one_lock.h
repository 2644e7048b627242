// What the strategies under one Redis lock share (ttl, watchdog, check-before-write and the fenced
// ones): the acquisition (by the policy, or as the step hook takes it), one pass from acquisition
// through read, (check,) pause and write to release, and a pass started again when the strategy
// says so. Unchanged, it is the article's ttl worker: an unchecked read and write. A strategy
// overrides how it reads, checks, writes, or keeps its lease. Not thread-safe (incrementer.h).
#pragma once

#include <optional>

#include "rlock/acquire.h"
#include "rlock/redis_connection.h"
#include "rlock/redis_lock.h"
#include "strategy/incrementer.h"

namespace rlock::strategy {

class OneLock : public Incrementer, private Acquiring {
 public:
  OneLock(const Setting& setting, Parts parts, bool fenced);
  void reconnect() override { redis_.reconnect(); }

 protected:
  // The balance; empty when a claiming read found a newer fence (the pass is rejected).
  virtual std::optional<long long> read(const Lease& lease);
  // False when the lock was found lost: the pass starts again, nothing written or released.
  virtual bool check(const Lease&) { return true; }
  // Writes before + amount; false when the write was rejected (a stale fence).
  virtual bool write(const Lease& lease, long long before, long long amount, double sent_at);
  // Called once the lease is granted, and before its release: how the strategy keeps it alive.
  virtual void hold(const Lease& lease) { parts_.steps.granted(lease.token, {}); }
  virtual void let_go() {}
  // A rejected write starts again from the acquisition (fenced-retry, fenced-claim), or fails the
  // increment (fenced).
  virtual bool retries_rejected() const { return false; }

  Setting setting_;
  Parts parts_;
  RedisConnection redis_;
  RedisLock lock_;

 private:
  void add(long long amount) override;
  bool attempt(long long amount, bool first);
  // Read, (check), pause, write; how the pass ended: written, rejected (a stale fence, at the write or
  // already at a claiming read), or the lock found lost before the write.
  enum class Pass { written, rejected, lock_lost };
  Pass read_modify_write(const Lease& lease, long long amount, bool first);

  Lease by_policy() override;
  std::optional<Acquisition> once() override;
  void refused(const Acquisition& refusal) override;

  bool fenced_;
  Acquirer acquirer_;
};

}  // namespace rlock::strategy
