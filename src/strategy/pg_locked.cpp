// pg-row-lock and pg-advisory: no Redis; one PostgreSQL transaction takes the row's lock (SELECT
// ... FOR UPDATE) or the account's advisory lock (pg_advisory_xact_lock), reads, pauses, writes and
// commits, the database's own lock held across the read, the pause and the write.
#include "strategy/strategies.h"

namespace rlock::strategy {
namespace {

class PgLocked final : public Incrementer {
 public:
  PgLocked(const Setting& setting, Parts parts, bank::AccountStore::TxLock lock)
      : setting_(setting), parts_(parts), lock_(lock) {}

 private:
  void add(long long amount) override {
    bool row = lock_ == bank::AccountStore::TxLock::row;
    long long before = 0;
    double sent_at = 0;
    long long after = written([&] {
      return parts_.account.locked_update(lock_, [&](long long balance) {
        parts_.journal.record(lab::EventKind::pg_locked, {{"lock", row ? "row" : "advisory"}});
        parts_.journal.record(lab::EventKind::read, {{"balance", balance}});
        before = balance;
        parts_.journal.mark_read();
        pause_for(setting_.work_seconds);
        sent_at = parts_.journal.elapsed();  // the commit releases the lock later
        return balance + amount;
      });
    });
    state_.added = true;
    parts_.journal.record(lab::EventKind::wrote,
                          {{"before", before}, {"amount", amount}, {"after", after}, {"sent_at", sent_at}});
  }

  Setting setting_;
  Parts parts_;
  bank::AccountStore::TxLock lock_;
};

}  // namespace

std::unique_ptr<Incrementer> make_pg_locked(const Setting& setting, Parts parts, bank::AccountStore::TxLock lock) {
  return std::make_unique<PgLocked>(setting, parts, lock);
}

}  // namespace rlock::strategy
