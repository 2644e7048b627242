// The price of safety: what one increment of an account costs under each strategy (lab/strategy.h),
// done exactly as the lab's worker does it (strategy/worker.h's RepeatedWorker: acquire, read, write,
// release), on the bench's servers.
//
// A strategy's floor is its own sequence of round trips with no work in them (PING to each Redis it
// talks to, SELECT 1 for each statement, BEGIN and COMMIT included), timed in the same rounds as its
// increments. The contended rows fork client processes; each ends with the accounts' final balances
// checked against the increments counted, so a lost update marks the row instead of hiding in a
// rate. Run from a process with no other threads: the contended rows fork.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "bench/bench.h"
#include "bench/strategy_row.h"
#include "lab/strategy.h"

namespace rlock::bench {

// The client counts on one account, then the clients spread over as many accounts.
inline const std::vector<int> kContendedClients{1, 4, 16};
inline constexpr int kSpreadClients = 16;

// The rows of `strategy`: clients 1, 4, 16 on one account, 16 on 16 accounts (setup.account and
// the next 15), for setup.seconds each plus the clients' start. Throws Error when a client or the
// bench's own increment fails.
std::vector<StrategyRow> measure_strategy(const BenchSetup& setup, lab::Strategy strategy);

// The strategy's floor, one round per call: its round trips with no work in them, on connections of
// its own (Redis: setup.redis, or setup.redlock's three for redlock) and on `store`.
std::function<void()> strategy_floor(const BenchSetup& setup, lab::Strategy strategy, bank::AccountStore& store);

// The strategies `rlock bench` measures when not told: every one the issue of safety is about
// (ttl, watchdog, fenced-retry, fenced-claim, redlock, pg-atomic, pg-row-lock, pg-advisory).
const std::vector<lab::Strategy>& default_bench_strategies();

}  // namespace rlock::bench
