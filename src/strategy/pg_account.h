// One account in PostgreSQL's accounts table (bank::AccountStore), on a connection of its own.
// Throws what AccountStore throws. Not thread-safe.
#pragma once

#include <string>

#include "bank/account_store.h"
#include "strategy/account.h"

namespace rlock::strategy {

class PgAccount final : public Account {
 public:
  // Connects; throws Error when PostgreSQL does not answer.
  PgAccount(const std::string& conninfo, long account) : store_(conninfo), account_(account) {}

  long long read() override { return store_.read_balance(account_); }
  std::optional<long long> claim_read(Fence fence) override { return store_.claim_read(account_, fence); }
  void write(long long balance) override { store_.write_balance(account_, balance); }
  long long fenced_write(long long balance, Fence fence) override {
    return store_.fenced_write(account_, balance, fence);
  }
  long long claimed_write(long long balance, Fence fence) override {
    return store_.claimed_write(account_, balance, fence);
  }
  long long add_atomically(long long amount) override { return store_.add_atomically(account_, amount); }
  long long locked_update(bank::AccountStore::TxLock lock,
                          const std::function<long long(long long balance)>& decide) override {
    return store_.locked_update(account_, lock, decide);
  }

 private:
  bank::AccountStore store_;
  long account_;
};

}  // namespace rlock::strategy
