// The single-connection cases of rlock bench: the round-trip floors, the plain lock cycle and the
// fenced cycle, interleaved round by round on the same two connections.
#include <fmt/format.h>

#include "bench.h"
#include "error.h"
#include "redis_lock.h"

namespace rlock {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kTtl{2000};

template <typename Work>
double time_us(Work&& work) {
  auto start = Clock::now();
  work();
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

void release_or_throw(RedisLock& lock, const Token& token) {
  if (lock.release(token) != ReleaseResult::released) {
    throw Error(fmt::format("rlock bench: the release of {} failed: {}", lock.key().lock, lock.last_release_error()));
  }
}

Lease acquire_or_throw(RedisLock& lock, bool fenced) {
  Acquisition acquisition = fenced ? lock.acquire_fenced(kTtl) : lock.acquire(kTtl);
  if (!acquisition) throw Error(fmt::format("rlock bench: {} is held by another client", lock.key().lock));
  return *acquisition.lease;
}

}  // namespace

std::vector<BenchCase> measure_round_trips(const BenchSetup& setup, RedisConnection& redis, AccountStore& store) {
  LockKey key = LockKey::for_account(setup.account);
  redis.checked({"DEL", key.lock, key.fence_counter});
  store.reset(setup.account);
  RedisLock lock(redis, key);
  release_or_throw(lock, acquire_or_throw(lock, false).token);  // loads the scripts: no round is the first
  release_or_throw(lock, acquire_or_throw(lock, true).token);

  std::vector<double> redis_rtt, pg_rtt, cycle, fenced_cycle;
  auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(setup.seconds);
  while (Clock::now() < end) {
    redis_rtt.push_back(time_us([&] { redis.checked({"PING"}); }));
    pg_rtt.push_back(time_us([&] { store.ping(); }));
    cycle.push_back(time_us([&] { release_or_throw(lock, acquire_or_throw(lock, false).token); }));
    fenced_cycle.push_back(time_us([&] {
      Lease lease = acquire_or_throw(lock, true);
      long long balance = store.read_balance(setup.account);
      if (store.fenced_write(setup.account, balance + 1, *lease.fence) != 1) {
        throw Error(fmt::format("rlock bench: the fenced write with token {} was rejected", lease.fence->value));
      }
      release_or_throw(lock, lease.token);
    }));
  }
  BenchCase redis_case = BenchCase::from("rtt-redis", redis_rtt, 0);
  BenchCase pg_case = BenchCase::from("rtt-pg", pg_rtt, 0);
  redis_case.floor_us = redis_case.median_us;
  pg_case.floor_us = pg_case.median_us;
  double redis_floor = redis_case.median_us, pg_floor = pg_case.median_us;
  return {redis_case, pg_case, BenchCase::from("cycle", cycle, 2 * redis_floor),
          BenchCase::from("fenced-cycle", fenced_cycle, 2 * redis_floor + 2 * pg_floor)};
}

}  // namespace rlock
