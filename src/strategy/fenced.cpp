// fenced, fenced-retry, fenced-claim: one strategy, the lock's fencing token written with the
// balance (`fence < $token`), so that a stale holder's write is rejected. fenced fails the
// increment then; fenced-retry starts again from the acquisition; fenced-claim starts again too,
// and claims the fence at the read (the row's fence set to its own), writing only while it is still
// its own, so that a stale write can no longer land between a newer holder's read and its write.
#include "strategy/one_lock.h"
#include "strategy/strategies.h"

namespace rlock::strategy {
namespace {

class Fenced final : public OneLock {
 public:
  Fenced(const Setting& setting, Parts parts, FencedWrite mode) : OneLock(setting, parts, true), mode_(mode) {}

 private:
  std::optional<long long> read(const Lease& lease) override {
    if (mode_ != FencedWrite::claim) return OneLock::read(lease);
    parts_.steps.before(lab::Step::claim);
    std::optional<long long> claimed = parts_.account.claim_read(*lease.fence);
    if (!claimed) {
      parts_.journal.record(lab::EventKind::claim_rejected, {{"fence", lease.fence->value}});
      return std::nullopt;
    }
    parts_.steps.before(lab::Step::read);  // the balance came with the claim
    parts_.journal.record(lab::EventKind::read, {{"balance", *claimed}, {"fence", lease.fence->value}});
    return claimed;
  }

  bool write(const Lease& lease, long long before, long long amount, double sent_at) override {
    long long after = before + amount;
    Fence fence = *lease.fence;
    long long rowcount = written([&] {
      return mode_ == FencedWrite::claim ? parts_.account.claimed_write(after, fence)
                                         : parts_.account.fenced_write(after, fence);
    });
    state_.added = rowcount > 0;
    parts_.journal.record(lab::EventKind::fenced_write,
                          {{"balance", after}, {"fence", fence.value}, {"rowcount", rowcount}, {"sent_at", sent_at}});
    return rowcount > 0;
  }

  bool retries_rejected() const override { return mode_ != FencedWrite::once; }

  FencedWrite mode_;
};

}  // namespace

std::unique_ptr<Incrementer> make_fenced(const Setting& setting, Parts parts, FencedWrite mode) {
  return std::make_unique<Fenced>(setting, parts, mode);
}

}  // namespace rlock::strategy
