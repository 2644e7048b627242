#include "bench/bench_contended.h"

#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "host/child.h"
#include "rlock/error.h"
#include "strategy/worker.h"
#include "util/stats.h"
#include "util/whole_file.h"

namespace rlock::bench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kConnectTime{300};  // the clients' connections, before the start

long long nanoseconds(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

std::filesystem::path records_of(const BenchSetup& setup, lab::Strategy strategy, int client) {
  return setup.dir / fmt::format("strategy-{}-{}.txt", lab::to_string(strategy), client);
}

void run_client(const BenchSetup& setup, const lab::WorkerPlan& plan, const std::filesystem::path& records,
                Clock::time_point start, Clock::time_point end) {
  strategy::RepeatedWorker worker(plan, setup.redis, setup.conninfo);
  std::string lines;  // written once the case ends, off the timed loop
  std::this_thread::sleep_until(start);
  while (Clock::now() < end) {
    auto began = Clock::now();
    worker.increment();
    fmt::format_to(std::back_inserter(lines), "{} {}\n", nanoseconds(began), nanoseconds(Clock::now()));
  }
  util::write_whole_file(records, lines);
}

// No destructors run in the client (fork_child): the parent's connections were inherited.
pid_t spawn_client(const BenchSetup& setup, const lab::WorkerPlan& plan, const std::filesystem::path& records,
                   Clock::time_point start, Clock::time_point end) {
  return host::fork_child([&] {
    try {
      run_client(setup, plan, records, start, end);
    } catch (const std::exception& e) {
      fmt::print(stderr, "rlock: error: bench client {} ({}): {}\n", plan.name, lab::to_string(plan.strategy),
                 e.what());
      return 1;
    }
    return 0;
  });
}

}  // namespace

lab::WorkerPlan bench_plan(const BenchSetup& setup, lab::Strategy strategy, long account, int client) {
  lab::WorkerPlan plan;
  plan.name = fmt::format("bench-{}", client);
  plan.amount = 1;
  plan.account = account;
  plan.strategy = strategy;
  plan.wait = setup.wait;
  if (lab::lock_servers(strategy) == 3) plan.redlock = setup.redlock;
  return plan;
}

void reset_accounts(const BenchSetup& setup, int accounts) {
  bank::AccountStore store(setup.conninfo);
  RedisConnection redis(setup.redis);
  for (long account = setup.account; account < setup.account + accounts; ++account) {
    LockKey key = LockKey::for_account(account);
    store.reset(account);
    redis.checked({"DEL", key.lock, key.fence_counter, key.queue, key.queue_deadlines});
    for (const RedisAddress& server : setup.redlock) RedisConnection(server).checked({"DEL", key.lock});
  }
}

StrategyRow measure_contended(const BenchSetup& setup, lab::Strategy strategy, int clients, int accounts,
                              double floor_us) {
  reset_accounts(setup, accounts);
  auto start = Clock::now() + kConnectTime;
  auto end = start + std::chrono::duration_cast<Clock::duration>(setup.seconds);
  std::vector<pid_t> pids;
  for (int client = 0; client < clients; ++client) {
    lab::WorkerPlan plan = bench_plan(setup, strategy, setup.account + client % accounts, client);
    pids.push_back(spawn_client(setup, plan, records_of(setup, strategy, client), start, end));
  }
  int failed = 0;
  for (pid_t pid : pids) failed += host::reap(pid).succeeded() ? 0 : 1;
  if (failed > 0)
    throw Error(fmt::format("rlock bench: {} of {} {} clients failed", failed, clients, lab::to_string(strategy)));

  std::vector<double> latencies_us;
  std::vector<long long> per_account(static_cast<std::size_t>(accounts), 0);
  long long first = 0, last = 0;
  for (int client = 0; client < clients; ++client) {
    std::ifstream in(records_of(setup, strategy, client));
    for (long long began = 0, ended = 0; in >> began >> ended;) {
      latencies_us.push_back(static_cast<double>(ended - began) / 1e3);
      per_account[static_cast<std::size_t>(client % accounts)] += 1;
      first = first == 0 ? began : std::min(first, began);
      last = std::max(last, ended);
    }
  }
  bank::AccountStore store(setup.conninfo);
  bool balance_ok = true;
  for (int a = 0; a < accounts; ++a) {
    balance_ok = balance_ok && store.read_balance(setup.account + a) ==
                                   bank::AccountStore::kInitialBalance + per_account[static_cast<std::size_t>(a)];
  }
  double elapsed_s = static_cast<double>(last - first) / 1e9;
  return StrategyRow{std::string(lab::to_string(strategy)),
                     clients,
                     accounts,
                     latencies_us.size(),
                     util::median(latencies_us),
                     util::percentile(latencies_us, 0.99),
                     floor_us,
                     elapsed_s > 0 ? static_cast<double>(latencies_us.size()) / elapsed_s : 0,
                     balance_ok};
}

}  // namespace rlock::bench
