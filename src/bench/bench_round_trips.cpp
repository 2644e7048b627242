// The single-connection cases of rlock bench: the round-trip floors, the plain lock cycle and the
// fenced cycle, interleaved round by round on the same two connections.
#include <fmt/format.h>

#include "bench/bench.h"
#include "rlock/error.h"
#include "rlock/redis_lock.h"
#include "util/stats.h"

namespace rlock::bench {
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

std::vector<BenchCase> measure_round_trips(const BenchSetup& setup, RedisConnection& redis, bank::AccountStore& store) {
  LockKey key = LockKey::for_account(setup.account);
  redis.checked({"DEL", key.lock, key.fence_counter});
  store.reset(setup.account);
  RedisLock lock(redis, key);
  release_or_throw(lock, acquire_or_throw(lock, false).token);  // loads the scripts: no round is the first
  release_or_throw(lock, acquire_or_throw(lock, true).token);

  // Each floor is the case's own sequence of round trips with no work in them, timed in the same
  // rounds: on a virtual machine a round trip costs more or less depending on what ran just before
  // (an idle CPU wakes slowly), so a floor must follow the same pattern as its case.
  auto ping = [&] { redis.checked({"PING"}); };
  auto select_1 = [&] { store.ping(); };
  std::vector<double> redis_rtt, pg_rtt, cycle, cycle_floor, fenced_cycle, fenced_floor;
  auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(setup.seconds);
  while (Clock::now() < end) {
    redis_rtt.push_back(time_us(ping));
    pg_rtt.push_back(time_us(select_1));
    cycle_floor.push_back(time_us([&] { ping(), ping(); }));
    cycle.push_back(time_us([&] { release_or_throw(lock, acquire_or_throw(lock, false).token); }));
    fenced_floor.push_back(time_us([&] { ping(), select_1(), select_1(), ping(); }));
    fenced_cycle.push_back(time_us([&] {
      Lease lease = acquire_or_throw(lock, true);
      long long balance = store.read_balance(setup.account);
      if (store.fenced_write(setup.account, balance + 1, *lease.fence) != 1) {
        throw Error(fmt::format("rlock bench: the fenced write with token {} was rejected", lease.fence->value));
      }
      release_or_throw(lock, lease.token);
    }));
  }
  return {BenchCase::from("rtt-redis", redis_rtt, util::median(redis_rtt)),
          BenchCase::from("rtt-pg", pg_rtt, util::median(pg_rtt)),
          BenchCase::from("cycle", cycle, util::median(cycle_floor)),
          BenchCase::from("fenced-cycle", fenced_cycle, util::median(fenced_floor))};
}

}  // namespace rlock::bench
