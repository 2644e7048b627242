// The sections of a hand-off case of rlock bench (bench.h, bench_handoff.cpp) and what they come to: for each
// critical section, when it was acquired and when its release began, on one steady clock, summarized as the hand-off
// from one release to the next acquisition, throughput, and Jain's index of sections per client. The case's shape
// (work per section, length) is here too. Plain values and pure functions; thread-safe.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "bench/bench.h"

namespace rlock::bench {

// A section's work is drawn from 0 to kMaxWork, so that a release falls anywhere in a poller's 0.1 s cycle.
inline constexpr std::chrono::milliseconds kMaxWork{100};
// A case runs for --seconds and until it has this many hand-offs (a median of a handful on a busy machine says
// little, and none fails the run), but never longer than kOvertime past --seconds.
inline constexpr long kMinHandoffs = 20;
inline constexpr std::chrono::seconds kOvertime{30};

struct Section {
  long long acquired_ns = 0;
  long long releasing_ns = 0;  // stamped before the release is sent
  int client = 0;
};

long long nanoseconds(std::chrono::steady_clock::time_point t);

// The case `name` of `clients` clients from their `sections` (in any order): samples from each release to the next
// acquisition, against `floor_us`. extra: clients, sections, throughput, Jain's index, the account's final and
// expected balance and whether they agree, and the median's ratios to both `sleepers` floors.
BenchCase summarize_handoffs(std::string name, std::vector<Section> sections, int clients, double floor_us,
                             const SleeperFloors& sleepers, long long final_balance, long long expected_balance);

}  // namespace rlock::bench
