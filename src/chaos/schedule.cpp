#include "chaos/schedule.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string_view>

#include "util/seeded_random.h"

namespace rlock {
namespace {

// FNV-1a: a hash of a name that is the same on every machine and build.
std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return hash;
}

std::uint64_t splitmix(std::uint64_t x) { return SeededRandom::mix(x + 0x9e3779b97f4a7c15ULL); }

}  // namespace

Schedule schedule_for(const TrialSpec& spec, const ChaosSetup& setup) {
  // Every draw is SeededRandom's, whose mappings are written out: the same on every compiler and
  // standard library (schedule_test's golden file holds the first trials of seed 2026).
  SeededRandom rng(splitmix(setup.seed ^ splitmix(fnv1a(row_name(spec)) ^
                                                      splitmix(fnv1a(to_string(spec.fault)) + static_cast<std::uint64_t>(spec.number)))));
  auto uniform = [&](double low, double high) { return rng.real(low, high); };
  double ttl_s = std::chrono::duration<double>(setup.ttl).count();
  Schedule schedule;
  auto count = static_cast<int>(rng.integer(2, 4));
  for (int i = 0; i < count; ++i) {
    schedule.workers.push_back(WorkerSchedule{std::string(1, static_cast<char>('A' + i)),
                                              rng.integer(1, 100),
                                              uniform(0, 0.05), uniform(0.005, 0.03)});
  }
  auto first = std::min_element(schedule.workers.begin(), schedule.workers.end(),
                                [](const auto& a, const auto& b) { return a.delay_s < b.delay_s; });
  schedule.target = static_cast<std::size_t>(first - schedule.workers.begin());
  // Under a partition the holder works as under slow, so that only its watchdog, cut off, could
  // have kept the lock.
  if (spec.fault == Fault::slow || spec.fault == Fault::partition) schedule.workers[schedule.target].work_s = ttl_s * uniform(1.5, 3.0);
  // A restart, failover or stall must find the holder mid-job: its work takes half its TTL or more, and
  // still ends well inside it, so only the fault can take its lock away.
  if (spec.fault == Fault::redis_restart || spec.fault == Fault::failover || spec.fault == Fault::redis_stall) {
    schedule.workers[schedule.target].work_s = ttl_s * uniform(0.5, 0.8);
  }
  // Under clock-skew the holder's work ends just inside its TTL by its own clock: a slow clock
  // stretches it past the TTL, a fast one ends it early.
  if (spec.fault == Fault::clock_skew) schedule.workers[schedule.target].work_s = ttl_s * uniform(0.7, 0.95);
  schedule.pause_s = ttl_s * uniform(1.0, 2.5);
  // Replication held back for 0 to 2 TTLs: whether the lock reached the replica before the failover
  // is measured then (FailoverPair::lock_reached_replica), not drawn.
  if (spec.fault == Fault::failover) schedule.replica_lag_s = ttl_s * uniform(0, 2.0);
  // A kill falls anywhere from the target's read to its release: before its write (the increment
  // lost, unknown to the checker) or after it (the increment in, the lock held to its TTL).
  if (spec.fault == Fault::kill) {
    WorkerSchedule& target = schedule.workers[schedule.target];
    target.hold_s = uniform(0.005, 0.03);
    schedule.strike_after_s = uniform(0, target.work_s + target.hold_s);
  }
  // A failover falls at a point of the holder's work, by when the replica's link may be back.
  if (spec.fault == Fault::failover) schedule.strike_after_s = uniform(0, schedule.workers[schedule.target].work_s);
  if (spec.fault == Fault::net_delay) {
    for (WorkerSchedule& w : schedule.workers) w.latency_ms = uniform(0, ttl_s * 1000 / 4);
  }
  // As often slow as fast: 2 to the power -1 to 1.
  if (spec.fault == Fault::clock_skew) schedule.clock_rate = std::exp2(uniform(-1, 1));
  return schedule;
}

}  // namespace rlock
