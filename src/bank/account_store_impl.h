// The inside of AccountStore, shared by account_store.cpp and fenced_writes.cpp: its libpqxx
// connection with the statements it prepares, and the one place that runs a statement and
// translates libpqxx's failures into rlock's errors. Not part of the store's interface.
#pragma once

#include <pqxx/pqxx>

#include <fmt/format.h>

#include "bank/account_store.h"
#include "bank/statement_deadline.h"
#include "rlock/error.h"

namespace rlock::bank {

// libpq's messages run over several lines and repeat the address; keep the cause from the first line.
inline std::string cause_of(const std::exception& e) {
  std::string text = e.what();
  text = text.substr(0, text.find('\n'));
  if (auto failed = text.rfind("failed: "); failed != std::string::npos) text = text.substr(failed + 8);
  if (text.starts_with("FATAL:  ")) text = text.substr(8);
  if (text.starts_with("ERROR:  ")) text = text.substr(8);
  return text;
}

// The statements every worker runs, prepared once per connection: parsing and planning them again
// on every call costs about as much as a round trip on loopback.
constexpr const char* kRead = "read";
constexpr const char* kWrite = "write";

// Prepares the fenced writes' statements (fenced_writes.cpp).
void prepare_fenced_writes(pqxx::connection& pq);

struct AccountStore::Connection {
  Connection(const std::string& conninfo, PostgresLimits limits) : pq(conninfo), deadline(limits.deadline) {
    pq.set_variable("statement_timeout", std::to_string(limits.statement_timeout.count()));
    pq.prepare(kRead, "SELECT balance, fence FROM accounts WHERE id = $1");
    pq.prepare(kWrite, "UPDATE accounts SET balance = $1 WHERE id = $2");
    prepare_fenced_writes(pq);
  }
  pqxx::connection pq;
  StatementDeadline deadline;
};

// The client's deadline armed for as long as it lives.
class Armed {
 public:
  Armed(StatementDeadline& deadline, int fd) : deadline_(deadline) { deadline_.arm(fd); }
  ~Armed() { deadline_.disarm(); }
  Armed(const Armed&) = delete;
  Armed& operator=(const Armed&) = delete;

 private:
  StatementDeadline& deadline_;
};

// Runs `work` in a transaction (pqxx::work) or, for one statement, in autocommit mode
// (pqxx::nontransaction: one round trip, and a single statement is atomic on its own), and
// translates libpqxx's failures. A write whose connection broke before the answer came, or whose
// commit was not confirmed, may or may not have landed.
template <typename Transaction, typename Work>
auto AccountStore::run(const char* what, bool writes, Work&& work) {
  try {
    Armed armed(connection_->deadline, connection_->pq.sock());
    Transaction transaction(connection_->pq);
    auto result = work(transaction);
    transaction.commit();
    return result;
  } catch (const pqxx::in_doubt_error& e) {
    throw OutcomeUnknown(
        fmt::format("PostgreSQL at {}: {} may or may not have applied: {}", address_, what, cause_of(e)));
  } catch (const pqxx::broken_connection& e) {
    std::string message =
        connection_->deadline.fired()
            ? fmt::format(
                  "PostgreSQL at {}: no answer to {} within {} ms, the client's deadline: the server is frozen "
                  "or its host unreachable",
                  address_, what, connection_->deadline.limit().count())
            : fmt::format("PostgreSQL at {}: connection lost during {}: {}", address_, what, cause_of(e));
    if (writes) throw OutcomeUnknown(message);
    throw Error(message);
  } catch (const pqxx::sql_error& e) {
    throw Error(fmt::format("PostgreSQL at {} refused {}: {}", address_, what, cause_of(e)));
  }
}

}  // namespace rlock::bank
