// The account a strategy adds to, whoever keeps it: PostgreSQL (pg_account.h), or the harness
// that serves it to a protocol client (chaos/strategy_client.cpp). One account, one balance; the
// fence is the row's (`fence < $token`), claimed at a read or checked at a write.
//
// Failures are rlock errors: Error when the operation surely did not apply, OutcomeUnknown when a
// write was sent and its answer lost. An implementation is used by one thread.
#pragma once

#include <functional>
#include <optional>

#include "bank/account_store.h"
#include "rlock/lock_key.h"

namespace rlock::strategy {

class Account {
 public:
  virtual ~Account() = default;

  virtual long long read() = 0;
  // The read that claims `fence` (the row's fence set to it); empty when a newer fence was claimed.
  virtual std::optional<long long> claim_read(Fence fence) = 0;
  virtual void write(long long balance) = 0;
  // 1 when the write landed, 0 when a write with this fence or a newer one landed first.
  virtual long long fenced_write(long long balance, Fence fence) = 0;
  // 1 when the write landed, 0 when someone claimed a newer fence since this one's claim.
  virtual long long claimed_write(long long balance, Fence fence) = 0;

  // PostgreSQL's own ways (bank::AccountStore's add_atomically and locked_update); an account that
  // cannot lock inside PostgreSQL throws UsageError.
  virtual long long add_atomically(long long amount) = 0;
  virtual long long locked_update(bank::AccountStore::TxLock lock,
                                  const std::function<long long(long long balance)>& decide) = 0;
};

}  // namespace rlock::strategy
