#include "runner/served_log.h"

namespace rlock::runner {

void log_read(const lab::RunLog& log, std::string_view worker, const protocol::Read& message,
              const protocol::ReadOk& reply) {
  if (reply.claimed == false) {
    log.record(worker, lab::EventKind::claim_rejected, {{"fence", *message.token}});
    return;
  }
  log.record(worker, lab::EventKind::read,
             reply.claimed ? nlohmann::json{{"balance", reply.balance}, {"fence", *message.token}}
                           : nlohmann::json{{"balance", reply.balance}});
}

void log_write(const lab::RunLog& log, std::string_view worker, long long amount, const protocol::Write& message,
               bool applied, double sent_at) {
  long long balance = message.balance;
  if (message.token) {
    log.record(worker, lab::EventKind::fenced_write,
               {{"balance", balance}, {"fence", *message.token}, {"rowcount", applied ? 1 : 0}, {"sent_at", sent_at}});
  } else {
    log.record(worker, lab::EventKind::wrote,
               {{"before", balance - amount}, {"amount", amount}, {"after", balance}, {"sent_at", sent_at}});
  }
}

void log_write_held(const lab::RunLog& log, std::string_view worker) {
  log.record("host", lab::EventKind::network, {{"action", "its write held"}, {"target", worker}});
}

void log_write_delivered(const lab::RunLog& log, std::string_view worker) {
  log.record("host", lab::EventKind::network, {{"action", "its write delivered"}, {"target", worker}});
}

void log_error(const lab::RunLog& log, std::string_view worker, std::string_view message, long long amount,
               bool added) {
  log.record(worker, lab::EventKind::error,
             {{"message", message}, {"amount", amount}, {"added", added}, {"in_doubt", false}});
}

checker::ServedTally served_tally(const protocol::ServedAccount& account) {
  return checker::ServedTally{.stale_writes = account.stale_writes(),
                              .lost_money = account.lost_money(),
                              .balance = account.balance(),
                              .expected_balance = account.expected_balance(),
                              .repeated_writes = account.repeated_writes(),
                              .unwritten = account.unwritten()};
}

}  // namespace rlock::runner
