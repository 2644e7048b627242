// The accounts table in PostgreSQL: accounts(id, balance, fence), one row per account.
//
// Owns one libpqxx connection. Every statement is parameterized and runs on its own (autocommit).
// Failures become rlock errors naming the server (host:port/dbname, never the password):
// Error when the statement surely did not apply, OutcomeUnknown when the connection was lost
// while a write was in flight. A statement is bounded (PostgresLimits): by the server's
// statement_timeout, and by the client's own deadline when the server is too frozen to enforce
// it (bank/statement_deadline.h, which also turns TCP keepalives on). Not thread-safe.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "bank/initial_balance.h"
#include "rlock/lock_key.h"

namespace rlock::bank {

struct AccountRow {
  long long balance = 0;
  long long fence = 0;
};

// How long a statement may take: the server cancels it after `statement_timeout` (a lock wait
// counts; a locked_update's `decide` does not), and the client gives up on an unanswered one after
// `deadline`, later, for a server too frozen to cancel anything.
struct PostgresLimits {
  std::chrono::milliseconds statement_timeout{30'000};
  std::chrono::milliseconds deadline{35'000};
};

class AccountStore {
 public:
  static constexpr long long kInitialBalance = bank::kInitialBalance;

  // conninfo: any libpq connection string or URL. Gives up connecting after a few seconds
  // (PGCONNECT_TIMEOUT, 3 s unless set).
  explicit AccountStore(const std::string& conninfo, PostgresLimits limits = {});
  ~AccountStore();
  AccountStore(const AccountStore&) = delete;
  AccountStore& operator=(const AccountStore&) = delete;

  AccountRow read(long account);
  long long read_balance(long account) { return read(account).balance; }
  // The server's setting `name` (current_setting), such as unix_socket_directories.
  std::string setting(const std::string& name);
  void write_balance(long account, long long balance);
  // UPDATE ... SET balance=$1, fence=$2 WHERE id=$3 AND fence < $2. Returns the rowcount: 0 means
  // a write with this fence or a newer one already landed, and this one was rejected.
  long long fenced_write(long account, long long balance, Fence fence);
  // The fence claimed at the read: UPDATE ... SET fence=$2 WHERE id=$1 AND fence < $2 RETURNING
  // balance. Empty when a newer fence was claimed already. Paired with claimed_write, a stale
  // holder's write can no longer land between a newer holder's read and its write.
  std::optional<long long> claim_read(long account, Fence fence);
  // UPDATE ... SET balance=$1 WHERE id=$3 AND fence = $2: only while nobody claimed a newer fence.
  long long claimed_write(long account, long long balance, Fence fence);
  // Puts the row back to (kInitialBalance, fence 0), creating it when missing, and the accounts
  // table first when it is missing (init.sql, schema_sql.h).
  void reset(long account);

  // The PostgreSQL-native ways to add to a balance, no Redis involved:
  // UPDATE ... SET balance = balance + $1: one statement, the row lock held only inside it.
  long long add_atomically(long account, long long amount);
  // One transaction that locks first (the row: SELECT ... FOR UPDATE; or the account's advisory
  // lock: pg_advisory_xact_lock), reads the balance, lets `decide` compute the new one (it may take
  // its time: others wait on the lock), writes it and commits. Returns the balance written.
  enum class TxLock { row, advisory };
  long long locked_update(long account, TxLock lock, const std::function<long long(long long balance)>& decide);

  // SELECT 1: one round trip and next to no work, the floor the benchmark compares against.
  void ping();
  // How many more connections the server accepts now: max_connections less the reserved ones and
  // the client backends open (this one's included).
  long free_connections();
  // The server's version, as SHOW server_version reports it ("15.8 (Debian 15.8-0+deb12u1)").
  std::string server_version();

  const std::string& address() const { return address_; }
  // The server process serving this connection (pg_backend_pid()).
  int backend_pid() const;

 private:
  template <typename Transaction, typename Work>
  auto run(const char* what, bool writes, Work&& work);

  struct Connection;  // libpqxx's connection, kept out of this header
  std::string address_;
  std::unique_ptr<Connection> connection_;
};

// host:port/dbname of a libpq conninfo or URL, for messages; the password is never included.
// kUnparsable when libpq cannot parse it.
inline constexpr const char* kUnparsable = "(unparsable connection string)";
std::string describe_conninfo(const std::string& conninfo);

// The server of `conninfo` when it is reached over TCP at one address: its host and port. Nothing
// for a Unix socket (no host, or a directory), several hosts, or a string libpq cannot parse.
struct PgTcpAddress {
  std::string host;
  int port = 5432;
};
std::optional<PgTcpAddress> tcp_address_of(const std::string& conninfo);
// `conninfo` (a URL or key=value pairs) as key=value pairs, every setting kept but the server,
// which is `host`:`port`.
std::string conninfo_at(const std::string& conninfo, const std::string& host, int port);

}  // namespace rlock::bank
