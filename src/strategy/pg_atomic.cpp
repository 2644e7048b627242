// pg-atomic: no Redis and no lock of the harness's: one UPDATE adds the amount inside PostgreSQL
// (balance = balance + $1), the row locked only inside the statement.
#include "strategy/strategies.h"

namespace rlock::strategy {
namespace {

class PgAtomic final : public Incrementer {
 public:
  PgAtomic(const Setting& setting, Parts parts) : setting_(setting), parts_(parts) {}

 private:
  void add(long long amount) override {
    // The marker a host waits for to pause or kill a worker mid-work, then the work itself.
    parts_.journal.mark_read();
    pause_for(setting_.work_seconds);
    long long after = written([&] { return parts_.account.add_atomically(amount); });
    state_.added = true;
    parts_.journal.record(lab::EventKind::pg_added, {{"amount", amount}, {"after", after}});
  }

  Setting setting_;
  Parts parts_;
};

}  // namespace

std::unique_ptr<Incrementer> make_pg_atomic(const Setting& setting, Parts parts) {
  return std::make_unique<PgAtomic>(setting, parts);
}

}  // namespace rlock::strategy
