// The strategies a worker can run, by name: how it takes the lock (a Redis lock with a TTL, with a
// watchdog, Redlock over three servers, or none: PostgreSQL alone) and how it writes (unchecked,
// after checking the lock, or fenced: `fence < $token`, retried, or with the fence claimed at the
// read). The lab's worker runs one; chaos runs each under faults. Names are the command line's
// and the chaos table's ("fenced-retry", "pg-row-lock"). What a strategy is (its properties below)
// is said here once; code elsewhere asks a property rather than comparing names.
//
// Pure functions over a plain enum; thread-safe.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace rlock::lab {

enum class Strategy {
  ttl,
  watchdog,
  check_before_write,
  redlock,
  fenced,
  fenced_retry,
  fenced_claim,
  pg_atomic,
  pg_row_lock,
  pg_advisory
};

std::string_view to_string(Strategy strategy);
std::optional<Strategy> strategy_from(std::string_view name);
const std::vector<Strategy>& all_strategies();

// fenced, fenced-retry, fenced-claim: the lock hands out a fencing token and the write is fenced.
bool takes_fence(Strategy strategy);
// fenced-retry, fenced-claim: a rejected fenced write starts again from the acquisition.
bool retries_rejected_write(Strategy strategy);
// pg-atomic, pg-row-lock, pg-advisory: no Redis; the amount is added inside PostgreSQL.
bool in_postgres(Strategy strategy);
// The Redis servers its lock lives on: none (the PostgreSQL ones), three (redlock's quorum) or one.
int lock_servers(Strategy strategy);
// watchdog: the lease is extended while the holder runs.
bool renews_lease(Strategy strategy);
// check-before-write: the lock is checked again just before the write.
bool checks_before_write(Strategy strategy);
// All but pg-atomic (one UPDATE): an increment holds a lock, Redis's or the database's.
bool holds_lock(Strategy strategy);
// fenced-claim and the PostgreSQL ones: the database refuses or orders every write, so no fault of
// the lock loses money (chaos/faults/fault.h: expected_safe).
bool decided_at_resource(Strategy strategy);
// The statements an uncontended increment sends to PostgreSQL: the read and the write (2), or
// pg-atomic's one UPDATE, pg-row-lock's BEGIN, SELECT ... FOR UPDATE, UPDATE and COMMIT, pg-advisory's
// BEGIN, pg_advisory_xact_lock, SELECT, UPDATE and COMMIT.
int account_statements(Strategy strategy);

}  // namespace rlock::lab
