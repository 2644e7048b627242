#include "bank/account_store.h"

#include <libpq-fe.h>

#include <cstdlib>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "bank/account_store_impl.h"
#include "bank/schema_sql.h"
#include "rlock/error.h"

namespace rlock::bank {
namespace {

// Every option libpq read from `conninfo` that has a value, or nothing when it cannot parse it.
std::optional<std::vector<std::pair<std::string, std::string>>> conninfo_options(const std::string& conninfo) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(conninfo.c_str(), &error);
  if (options == nullptr) {
    PQfreemem(error);
    return std::nullopt;
  }
  std::vector<std::pair<std::string, std::string>> set;
  for (PQconninfoOption* o = options; o->keyword != nullptr; ++o) {
    if (o->val != nullptr && *o->val != '\0') set.emplace_back(o->keyword, o->val);
  }
  PQconninfoFree(options);
  return set;
}

}  // namespace

std::string describe_conninfo(const std::string& conninfo) {
  auto options = conninfo_options(conninfo);
  if (!options) return kUnparsable;
  std::string host = "localhost", port = "5432", dbname;
  for (const auto& [keyword, value] : *options) {
    if (keyword == "host" || (keyword == "hostaddr" && host == "localhost")) host = value;
    if (keyword == "port") port = value;
    if (keyword == "dbname") dbname = value;
  }
  return dbname.empty() ? fmt::format("{}:{}", host, port) : fmt::format("{}:{}/{}", host, port, dbname);
}

std::optional<PgTcpAddress> tcp_address_of(const std::string& conninfo) {
  auto options = conninfo_options(conninfo);
  if (!options) return std::nullopt;
  std::string host, port = "5432";
  for (const auto& [keyword, value] : *options) {
    if (keyword == "hostaddr" || (keyword == "host" && host.empty())) host = value;
    if (keyword == "port") port = value;
  }
  bool one_tcp_host = !host.empty() && host.front() != '/' && host.find(',') == std::string::npos &&
                      port.find(',') == std::string::npos;
  if (!one_tcp_host) return std::nullopt;
  try {
    return PgTcpAddress{host, std::stoi(port)};
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string conninfo_at(const std::string& conninfo, const std::string& host, int port) {
  auto quoted = [](const std::string& value) {
    std::string out = "'";
    for (char c : value) out += (c == '\'' || c == '\\') ? std::string{'\\', c} : std::string{c};
    return out + "'";
  };
  std::string out = fmt::format("host={} port={}", quoted(host), port);
  for (const auto& [keyword, value] :
       conninfo_options(conninfo).value_or(std::vector<std::pair<std::string, std::string>>{})) {
    if (keyword != "host" && keyword != "hostaddr" && keyword != "port")
      out += fmt::format(" {}={}", keyword, quoted(value));
  }
  return out;
}

AccountStore::AccountStore(const std::string& conninfo, PostgresLimits limits) : address_(describe_conninfo(conninfo)) {
  if (address_ == kUnparsable) {
    throw UsageError("bad PostgreSQL connection string (--db, DATABASE_URL): libpq cannot parse it");
  }
  setenv("PGCONNECT_TIMEOUT", "3", /*overwrite=*/0);
  try {
    connection_ = std::make_unique<Connection>(conninfo, limits);
  } catch (const std::exception& e) {
    std::string cause = cause_of(e);
    // The table rlock creates itself (reset); the database it cannot.
    bool no_database = cause.starts_with("database ") && cause.ends_with("does not exist");
    throw Error(fmt::format("cannot connect to PostgreSQL at {}: {}{}", address_, cause,
                            no_database ? " (create it with createdb, or name another with --db)" : ""));
  }
}

AccountStore::~AccountStore() = default;

int AccountStore::backend_pid() const { return connection_->pq.backendpid(); }

AccountRow AccountStore::read(long account) {
  return run<pqxx::nontransaction>("reading the balance", false, [&](pqxx::nontransaction& t) {
    pqxx::result rows = t.exec_prepared(kRead, account);
    if (rows.empty()) throw Error(fmt::format("PostgreSQL at {}: account {} does not exist", address_, account));
    return AccountRow{rows[0][0].as<long long>(), rows[0][1].as<long long>()};
  });
}

std::string AccountStore::setting(const std::string& name) {
  return run<pqxx::nontransaction>("reading a setting", false, [&](pqxx::nontransaction& t) {
    return t.exec_params("SELECT current_setting($1)", name)[0][0].as<std::string>();
  });
}

void AccountStore::write_balance(long account, long long balance) {
  run<pqxx::nontransaction>("writing the balance", true, [&](pqxx::nontransaction& t) {
    return t.exec_prepared(kWrite, balance, account).affected_rows();
  });
}

void AccountStore::reset(long account) {
  run<pqxx::nontransaction>("creating the accounts table (init.sql)", true, [](pqxx::nontransaction& t) {
    if (t.exec1("SELECT to_regclass('accounts') IS NULL")[0].as<bool>()) t.exec(std::string(kSchemaSql));
    return 0;
  });
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

long AccountStore::free_connections() {
  return run<pqxx::nontransaction>("counting connections", false, [](pqxx::nontransaction& t) {
    return t
        .exec(
            "SELECT current_setting('max_connections')::int - current_setting('superuser_reserved_connections')::int"
            " - (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend')")[0][0]
        .as<long>();
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
    connection_->deadline.disarm();  // the holder's work is not a statement
    long long balance = decide(rows[0][0].as<long long>());
    connection_->deadline.arm(connection_->pq.sock());
    t.exec_params("UPDATE accounts SET balance = $1 WHERE id = $2", balance, account);
    return balance;
  });
}

}  // namespace rlock::bank
