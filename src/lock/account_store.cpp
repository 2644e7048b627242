#include "account_store.h"

#include <libpq-fe.h>

#include <cstdlib>
#include <pqxx/pqxx>

#include <fmt/format.h>

#include "error.h"

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

struct AccountStore::Connection {
  explicit Connection(const std::string& conninfo) : pq(conninfo) {}
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

// Runs one statement in autocommit mode (one round trip: a single statement is atomic on its own)
// and translates libpqxx's failures. A write whose connection broke before the answer came may or
// may not have landed.
template <typename Work>
auto AccountStore::run(const char* what, bool writes, Work&& work) {
  try {
    pqxx::nontransaction statement(connection_->pq);
    return work(statement);
  } catch (const pqxx::broken_connection& e) {
    std::string message = fmt::format("PostgreSQL at {}: connection lost during {}: {}", address_, what, cause_of(e));
    if (writes) throw OutcomeUnknown(message);
    throw Error(message);
  } catch (const pqxx::sql_error& e) {
    throw Error(fmt::format("PostgreSQL at {} refused {}: {}", address_, what, cause_of(e)));
  }
}

AccountRow AccountStore::read(long account) {
  return run("reading the balance", false, [&](pqxx::nontransaction& t) {
    pqxx::result rows = t.exec_params("SELECT balance, fence FROM accounts WHERE id = $1", account);
    if (rows.empty()) throw Error(fmt::format("PostgreSQL at {}: account {} does not exist", address_, account));
    return AccountRow{rows[0][0].as<long long>(), rows[0][1].as<long long>()};
  });
}

void AccountStore::write_balance(long account, long long balance) {
  run("writing the balance", true, [&](pqxx::nontransaction& t) {
    return t.exec_params("UPDATE accounts SET balance = $1 WHERE id = $2", balance, account).affected_rows();
  });
}

long long AccountStore::fenced_write(long account, long long balance, Fence fence) {
  auto rows = run("the fenced write", true, [&](pqxx::nontransaction& t) {
    return t
        .exec_params("UPDATE accounts SET balance = $1, fence = $2 WHERE id = $3 AND fence < $2", balance,
                     fence.value, account)
        .affected_rows();
  });
  return static_cast<long long>(rows);
}

void AccountStore::reset(long account) {
  run("resetting the account", true, [&](pqxx::nontransaction& t) {
    return t
        .exec_params(
            "INSERT INTO accounts (id, balance, fence) VALUES ($1, $2, 0) "
            "ON CONFLICT (id) DO UPDATE SET balance = EXCLUDED.balance, fence = 0",
            account, kInitialBalance)
        .affected_rows();
  });
}

}  // namespace rlock
