#include "bank/account_store.h"

#include <libpq-fe.h>

#include <cstdlib>
#include <pqxx/pqxx>

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock {
namespace {

// libpq's messages run over several lines and repeat the address; keep the cause from the first line.
std::string cause_of(const std::exception& e) {
  std::string text = e.what();
  text = text.substr(0, text.find('\n'));
  if (auto failed = text.rfind("failed: "); failed != std::string::npos) text = text.substr(failed + 8);
  if (text.starts_with("FATAL:  ")) text = text.substr(8);
  if (text.starts_with("ERROR:  ")) text = text.substr(8);
  return text;
}

}  // namespace

// The statements every worker runs, prepared once per connection: parsing and planning them again
// on every call costs about as much as a round trip on loopback.
constexpr const char* kRead = "read";
constexpr const char* kWrite = "write";
constexpr const char* kFencedWrite = "fenced_write";
constexpr const char* kClaimRead = "claim_read";
constexpr const char* kClaimedWrite = "claimed_write";

struct AccountStore::Connection {
  explicit Connection(const std::string& conninfo) : pq(conninfo) {
    pq.prepare(kRead, "SELECT balance, fence FROM accounts WHERE id = $1");
    pq.prepare(kWrite, "UPDATE accounts SET balance = $1 WHERE id = $2");
    pq.prepare(kFencedWrite, "UPDATE accounts SET balance = $1, fence = $2 WHERE id = $3 AND fence < $2");
    pq.prepare(kClaimRead, "UPDATE accounts SET fence = $2 WHERE id = $1 AND fence < $2 RETURNING balance");
    pq.prepare(kClaimedWrite, "UPDATE accounts SET balance = $1 WHERE id = $3 AND fence = $2");
  }
  pqxx::connection pq;
};

std::string describe_conninfo(const std::string& conninfo) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(conninfo.c_str(), &error);
  if (options == nullptr) {
    PQfreemem(error);  // it may quote the password
    return kUnparsable;
  }
  std::string host = "localhost", port = "5432", dbname;
  for (PQconninfoOption* o = options; o->keyword != nullptr; ++o) {
    if (o->val == nullptr || *o->val == '\0') continue;
    std::string_view keyword = o->keyword;
    if (keyword == "host" || (keyword == "hostaddr" && host == "localhost")) host = o->val;
    if (keyword == "port") port = o->val;
    if (keyword == "dbname") dbname = o->val;
  }
  PQconninfoFree(options);
  return dbname.empty() ? fmt::format("{}:{}", host, port) : fmt::format("{}:{}/{}", host, port, dbname);
}

AccountStore::AccountStore(const std::string& conninfo) : address_(describe_conninfo(conninfo)) {
  if (address_ == kUnparsable) {
    throw UsageError("bad PostgreSQL connection string (--db, DATABASE_URL): libpq cannot parse it");
  }
  setenv("PGCONNECT_TIMEOUT", "3", /*overwrite=*/0);
  try {
    connection_ = std::make_unique<Connection>(conninfo);
  } catch (const std::exception& e) {
    throw Error(fmt::format("cannot connect to PostgreSQL at {}: {}", address_, cause_of(e)));
  }
}

AccountStore::~AccountStore() = default;

// Runs `work` in a transaction (pqxx::work) or, for one statement, in autocommit mode
// (pqxx::nontransaction: one round trip, and a single statement is atomic on its own), and
// translates libpqxx's failures. A write whose connection broke before the answer came, or whose
// commit was not confirmed, may or may not have landed.
template <typename Transaction, typename Work>
auto AccountStore::run(const char* what, bool writes, Work&& work) {
  try {
    Transaction transaction(connection_->pq);
    auto result = work(transaction);
    transaction.commit();
    return result;
  } catch (const pqxx::in_doubt_error& e) {
    throw OutcomeUnknown(fmt::format("PostgreSQL at {}: {} may or may not have applied: {}", address_, what, cause_of(e)));
  } catch (const pqxx::broken_connection& e) {
    std::string message = fmt::format("PostgreSQL at {}: connection lost during {}: {}", address_, what, cause_of(e));
    if (writes) throw OutcomeUnknown(message);
    throw Error(message);
  } catch (const pqxx::sql_error& e) {
    throw Error(fmt::format("PostgreSQL at {} refused {}: {}", address_, what, cause_of(e)));
  }
}

AccountRow AccountStore::read(long account) {
  return run<pqxx::nontransaction>("reading the balance", false, [&](pqxx::nontransaction& t) {
    pqxx::result rows = t.exec_prepared(kRead, account);
    if (rows.empty()) throw Error(fmt::format("PostgreSQL at {}: account {} does not exist", address_, account));
    return AccountRow{rows[0][0].as<long long>(), rows[0][1].as<long long>()};
  });
}

void AccountStore::write_balance(long account, long long balance) {
  run<pqxx::nontransaction>("writing the balance", true, [&](pqxx::nontransaction& t) {
    return t.exec_prepared(kWrite, balance, account).affected_rows();
  });
}

long long AccountStore::fenced_write(long account, long long balance, Fence fence) {
  auto rows = run<pqxx::nontransaction>("the fenced write", true, [&](pqxx::nontransaction& t) {
    return t.exec_prepared(kFencedWrite, balance, fence.value, account).affected_rows();
  });
  return static_cast<long long>(rows);
}

std::optional<long long> AccountStore::claim_read(long account, Fence fence) {
  return run<pqxx::nontransaction>("the claiming read", true, [&](pqxx::nontransaction& t) -> std::optional<long long> {
    pqxx::result rows = t.exec_prepared(kClaimRead, account, fence.value);
    if (rows.empty()) return std::nullopt;
    return rows[0][0].as<long long>();
  });
}

long long AccountStore::claimed_write(long account, long long balance, Fence fence) {
  auto rows = run<pqxx::nontransaction>("the claimed write", true, [&](pqxx::nontransaction& t) {
    return t.exec_prepared(kClaimedWrite, balance, fence.value, account).affected_rows();
  });
  return static_cast<long long>(rows);
}

void AccountStore::reset(long account) {
  run<pqxx::nontransaction>("resetting the account", true, [&](pqxx::nontransaction& t) {
    return t
        .exec_params(
            "INSERT INTO accounts (id, balance, fence) VALUES ($1, $2, 0) "
            "ON CONFLICT (id) DO UPDATE SET balance = EXCLUDED.balance, fence = 0",
            account, kInitialBalance)
        .affected_rows();
  });
}


void AccountStore::ping() {
  run<pqxx::nontransaction>("SELECT 1", false, [](pqxx::nontransaction& t) { return t.exec("SELECT 1").size(); });
}

std::string AccountStore::server_version() {
  return run<pqxx::nontransaction>("SHOW server_version", false, [](pqxx::nontransaction& t) {
    return t.exec("SHOW server_version")[0][0].as<std::string>();
  });
}

long long AccountStore::add_atomically(long account, long long amount) {
  return run<pqxx::nontransaction>("the atomic add", true, [&](pqxx::nontransaction& t) {
    pqxx::result rows =
        t.exec_params("UPDATE accounts SET balance = balance + $1 WHERE id = $2 RETURNING balance", amount, account);
    if (rows.empty()) throw Error(fmt::format("PostgreSQL at {}: account {} does not exist", address_, account));
    return rows[0][0].as<long long>();
  });
}

long long AccountStore::locked_update(long account, TxLock lock,
                                      const std::function<long long(long long balance)>& decide) {
  return run<pqxx::work>("the locked update", true, [&](pqxx::work& t) {
    if (lock == TxLock::advisory) t.exec_params("SELECT pg_advisory_xact_lock($1)", account);
    pqxx::result rows = t.exec_params(lock == TxLock::row ? "SELECT balance FROM accounts WHERE id = $1 FOR UPDATE"
                                                          : "SELECT balance FROM accounts WHERE id = $1",
                                      account);
    if (rows.empty()) throw Error(fmt::format("PostgreSQL at {}: account {} does not exist", address_, account));
    long long balance = decide(rows[0][0].as<long long>());
    t.exec_params("UPDATE accounts SET balance = $1 WHERE id = $2", balance, account);
    return balance;
  });
}

}  // namespace rlock
