// The price-of-safety rows of rlock bench: a strategy's increment alone against its floor, in this
// process, then its contended rows (bench_contended.cpp).
#include "bench/bench_strategy.h"

#include <functional>
#include <memory>

#include <fmt/format.h>

#include "bench/bench_contended.h"
#include "strategy/worker.h"
#include "util/stats.h"

namespace rlock::bench {

using lab::Strategy;

namespace {

using Clock = std::chrono::steady_clock;

template <typename Work>
double time_us(Work&& work) {
  auto start = Clock::now();
  work();
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// The strategy's round trips with no work in them: the lock's commands (one per server), then the
// statements (BEGIN and COMMIT counted for the transactions), then the release's.
class Floor {
 public:
  Floor(const BenchSetup& setup, Strategy strategy, bank::AccountStore& store) : strategy_(strategy), store_(store) {
    if (lab::lock_servers(strategy) == 3) {
      for (const RedisAddress& server : setup.redlock) servers_.push_back(std::make_unique<RedisConnection>(server));
    } else if (lab::lock_servers(strategy) == 1) {
      servers_.push_back(std::make_unique<RedisConnection>(setup.redis));
    }
  }

  void operator()() {
    ping_servers();
    store_.ping();
    if (lab::checks_before_write(strategy_)) servers_.front()->checked({"PING"});  // the check
    for (int i = 1; i < lab::account_statements(strategy_); ++i) store_.ping();
    ping_servers();
  }

 private:
  void ping_servers() {
    for (auto& server : servers_) server->checked({"PING"});
  }

  Strategy strategy_;
  bank::AccountStore& store_;
  std::vector<std::unique_ptr<RedisConnection>> servers_;
};

// Increments of one account in this process, each round also timing the floor.
StrategyRow measure_alone(const BenchSetup& setup, Strategy strategy) {
  bank::AccountStore store(setup.conninfo);
  reset_accounts(setup, 1);
  strategy::RepeatedWorker worker(bench_plan(setup, strategy, setup.account, 0), setup.redis, setup.conninfo);
  std::function<void()> floor = strategy_floor(setup, strategy, store);
  worker.increment();  // connections made and scripts loaded: no round is the first
  floor();
  std::vector<double> increments, floors;
  auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(setup.seconds);
  while (Clock::now() < end) {
    floors.push_back(time_us(floor));
    increments.push_back(time_us([&] { worker.increment(); }));
  }
  StrategyRow row{std::string(lab::to_string(strategy)),
                  1,
                  1,
                  increments.size(),
                  util::median(increments),
                  util::percentile(increments, 0.99),
                  util::median(floors)};
  row.balance_ok = store.read_balance(setup.account) ==
                   bank::AccountStore::kInitialBalance + 1 + static_cast<long long>(increments.size());
  return row;
}

}  // namespace

std::function<void()> strategy_floor(const BenchSetup& setup, Strategy strategy, bank::AccountStore& store) {
  auto floor = std::make_shared<Floor>(setup, strategy, store);
  return [floor] { (*floor)(); };
}

std::vector<StrategyRow> measure_strategy(const BenchSetup& setup, Strategy strategy) {
  StrategyRow alone = measure_alone(setup, strategy);
  std::vector<StrategyRow> rows;
  for (int clients : kContendedClients) rows.push_back(measure_contended(setup, strategy, clients, 1, alone.floor_us));
  rows.push_back(measure_contended(setup, strategy, kSpreadClients, kSpreadClients, alone.floor_us));
  // One client on one account: its latencies are the uncontended ones, its rate the process's.
  StrategyRow& single = rows.front();
  single.increments += alone.increments;
  single.median_us = alone.median_us;
  single.p99_us = alone.p99_us;
  single.balance_ok = single.balance_ok && alone.balance_ok;
  return rows;
}

const std::vector<Strategy>& default_bench_strategies() {
  static const std::vector<Strategy> strategies{Strategy::ttl,          Strategy::watchdog,   Strategy::fenced_retry,
                                                Strategy::fenced_claim, Strategy::redlock,    Strategy::pg_atomic,
                                                Strategy::pg_row_lock,  Strategy::pg_advisory};
  return strategies;
}

}  // namespace rlock::bench
