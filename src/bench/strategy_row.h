// One row of the price-of-safety table (bench_strategy.h), a strategy's or a protocol client's:
// what its increments cost against its floor. A plain value; thread-safe.
#pragma once

#include <cstddef>
#include <string>

namespace rlock::bench {

// One line of the table. For clients 1 on 1 account, the latencies and the floor are the
// uncontended ones, measured in this process; otherwise the latencies are the clients' own (waits
// included) against the same floor.
struct StrategyRow {
  std::string name;
  int clients = 1;
  int accounts = 1;
  std::size_t increments = 0;
  double median_us = 0;
  double p99_us = 0;
  double floor_us = 0;
  double throughput_per_s = 0;
  bool balance_ok = false;
  bool client = false;     // a protocol client's row (rlock bench --client), not a strategy's
  std::size_t failed = 0;  // a client's increments that gave up (done with an error)

  double ratio() const { return floor_us > 0 ? median_us / floor_us : 0; }
};

}  // namespace rlock::bench
