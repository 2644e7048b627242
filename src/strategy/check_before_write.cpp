// check-before-write: right after the read, the holder asks Redis whether the lock is still its
// own, and starts again from the acquisition when it is not. The check passes, and the write is
// still unsafe: a pause after the check outlives the TTL all the same.
#include "strategy/one_lock.h"
#include "strategy/strategies.h"

namespace rlock::strategy {
namespace {

class CheckBeforeWrite final : public OneLock {
 public:
  CheckBeforeWrite(const Setting& setting, Parts parts) : OneLock(setting, parts, false) {}

 private:
  bool check(const Lease& lease) override {
    Ownership ownership = lock_.holds(lease.token);
    parts_.journal.record(lab::EventKind::checked, {{"held", ownership.held}, {"pttl", ownership.pttl_ms}});
    return ownership.held;
  }
};

}  // namespace

std::unique_ptr<Incrementer> make_check_before_write(const Setting& setting, Parts parts) {
  return std::make_unique<CheckBeforeWrite>(setting, parts);
}

}  // namespace rlock::strategy
