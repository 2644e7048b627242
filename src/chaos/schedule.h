// A chaos trial's schedule, as the generator (generator.h) drew it: who starts when, adds what and
// works how long, which worker the nemesis strikes, and how long a pause lasts.
//
// Plain values; thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace rlock::chaos {

struct WorkerSchedule {
  std::string name;
  long long amount = 0;
  double delay_s = 0;
  double work_s = 0;
  double hold_s = 0;      // after its write, before its release (the target under `kill`)
  double latency_ms = 0;  // net-delay: the mean latency of each of its connections
};

// The generator: who starts when, adds what, works how long, and the fault's victim and length.
struct Schedule {
  std::vector<WorkerSchedule> workers;
  std::size_t target = 0;     // the worker the nemesis picks: the first to start, likely the first holder
  double pause_s = 0;         // how long a pause, a partition, a held write or a stall lasts
  double strike_after_s = 0;  // kill and failover: how long after the target's read the nemesis strikes
  double replica_lag_s = 0;   // failover: how long the replica's link is cut from the trial's start
  double clock_rate = 1;      // clock-skew: how fast the target's clock runs, 0.5 to 2 (drawn last)
};

}  // namespace rlock::chaos
