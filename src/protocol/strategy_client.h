// The client end of the line protocol (docs/clients.md) played by a built-in strategy: what
// `rlock client --strategy S` runs, so that the protocol's verdicts can be checked against the
// built-in cells of the same strategy (the conformance test).
//
// It runs the built-in strategy's own object (strategy/incrementer.h), the code the built-in worker
// runs, on the Redis servers the harness names in `init` (three for redlock), with the account the
// harness serves through the protocol's read, claim and write messages where the built-in worker
// uses PostgreSQL. Two things are the protocol's: a refused lock is asked again after 10 ms, for at
// most 10 TTLs; and the work between read and write is the harness's (it holds the read's answer
// back), so check-before-write, which checks as soon as the read returns, checks after that work,
// just before the write, where the built-in worker checks before its pause. It announces its release
// (the protocol's `step`), so that a fault waiting for that step (lost-reply) strikes it. Runs on the calling
// thread (plus the watchdog's thread for `watchdog`); one client per process, as the harness
// starts them.
#pragma once

#include <istream>
#include <ostream>

#include "lab/strategy.h"
#include "rlock/release_waiter.h"

namespace rlock::protocol {

// Throws UsageError for the pg-* strategies: their lock is PostgreSQL's, taken around the account
// that the harness serves, which the protocol cannot express.
void check_client_strategy(lab::Strategy strategy);

// Throws UsageError for a wait mode other than poll with redlock, whose quorum has no queue or announcement.
void check_client_wait(lab::Strategy strategy, WaitMode wait);

// Answers `init`, then each `increment`, until `in` ends (the trial is over), a refused attempt waiting as `wait`
// says (release_waiter.h; the lock's release does its part). Throws UsageError when init's `redis` list does not
// suit the strategy (redlock needs three servers), Error when the harness sends what the protocol does not allow.
// Lock failures are the increment's `done` error.
void run_strategy_client(lab::Strategy strategy, WaitMode wait, std::istream& in, std::ostream& out);

}  // namespace rlock::protocol
