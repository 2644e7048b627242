// The accounts table in PostgreSQL: accounts(id, balance, fence), one row per account.
//
// Owns one libpqxx connection. Every statement is parameterized and runs on its own (autocommit).
// Failures become rlock errors naming the server (host:port/dbname, never the password):
// Error when the statement surely did not apply, OutcomeUnknown when the connection was lost
// while a write was in flight. Not thread-safe.
#pragma once

#include <memory>
#include <string>

#include "lock_key.h"

namespace rlock {

struct AccountRow {
  long long balance = 0;
  long long fence = 0;
};

class AccountStore {
 public:
  static constexpr long long kInitialBalance = 100;

  // conninfo: any libpq connection string or URL. Gives up connecting after a few seconds
  // (PGCONNECT_TIMEOUT, 3 s unless set).
  explicit AccountStore(const std::string& conninfo);
  ~AccountStore();
  AccountStore(const AccountStore&) = delete;
  AccountStore& operator=(const AccountStore&) = delete;

  AccountRow read(long account);
  long long read_balance(long account) { return read(account).balance; }
  void write_balance(long account, long long balance);
  // UPDATE ... SET balance=$1, fence=$2 WHERE id=$3 AND fence < $2. Returns the rowcount: 0 means
  // a write with this fence or a newer one already landed, and this one was rejected.
  long long fenced_write(long account, long long balance, Fence fence);
  // Puts the row back to (kInitialBalance, fence 0), creating it when missing.
  void reset(long account);

  const std::string& address() const { return address_; }

 private:
  template <typename Work>
  auto run(const char* what, bool writes, Work&& work);

  struct Connection;  // libpqxx's connection, kept out of this header
  std::string address_;
  std::unique_ptr<Connection> connection_;
};

// host:port/dbname of a libpq conninfo or URL, for messages; the password is never included.
// kUnparsable when libpq cannot parse it.
inline constexpr const char* kUnparsable = "(unparsable connection string)";
std::string describe_conninfo(const std::string& conninfo);

}  // namespace rlock
