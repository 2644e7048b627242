// The contended rows of the price-of-safety table (bench_strategy.h): client processes, each a
// lab worker incrementing again and again (RepeatedWorker), on one account or spread over several.
// Each client writes its increments (start, end: steady-clock nanoseconds) to a file the parent
// merges; the accounts' final balances are checked against them.
//
// Functions of the calling process; measure_contended forks, so call it with no other threads.
#pragma once

#include "bench/bench.h"
#include "bench/strategy_row.h"
#include "lab/worker_plan.h"

namespace rlock::bench {

// The worker plan of bench client `client` on `account`: amount 1, setup.wait, redlock's servers.
lab::WorkerPlan bench_plan(const BenchSetup& setup, lab::Strategy strategy, long account, int client);

// Puts accounts setup.account .. + count - 1 back to their initial balance and frees their locks
// (and fence counters) on the bench's Redis and on redlock's servers.
void reset_accounts(const BenchSetup& setup, int accounts);

// `clients` processes (client i on account setup.account + i % accounts) increment for
// setup.seconds. Latencies are per increment as each client saw it; floor_us is the strategy's
// uncontended floor. Throws Error when a client fails.
StrategyRow measure_contended(const BenchSetup& setup, lab::Strategy strategy, int clients, int accounts,
                              double floor_us);

}  // namespace rlock::bench
