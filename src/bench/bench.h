// rlock bench: how much a lock costs over the round trips it cannot avoid.
//
// Each case is timed many times and summarized (median, p99) against a floor measured in the same
// run on the same connections: the round trips the case needs at the least, timed as a sequence of
// their own (PING for a Redis command, SELECT 1 for a statement). Cases:
//   rtt-redis, rtt-pg     PING and SELECT 1: one round trip each
//   cycle                 SET NX PX, then RELEASE by SHA: floor PING, PING
//   fenced-cycle          ACQUIRE_FENCED, read, fenced UPDATE, RELEASE: floor PING, SELECT 1 twice, PING
//   sleeper-floor         two processes asleep on subscribed connections, playing ping-pong through PUBLISH: half
//                         a round, the least a Pub/Sub hand-off can cost (its own floor); 1 ms between rounds
//   sleeper-floor-long    the same with 50 ms between rounds, as long as a hand-off's waiter sleeps at the least:
//                         where an idle core wakes slowly (a virtual machine's), this is the floor a hand-off meets
//   handoff-poll/-notify/-queue/-direct  N processes contending for one lock: release to the next acquisition; floor 2
//                         Redis RTT (as in earlier runs), and the ratios to both sleeper floors besides
//   handoff-NAME          the same, of a protocol client's own lock (client_handoff.h)
//   startup               `rlock worker` from spawn to its first Redis command, and its peak memory
// and the price-of-safety rows (bench_strategy.h): each strategy's increment, done as the lab's
// worker does it, alone against its floor and contended by 1, 4 and 16 processes.
// The benchmark owns one account (its row and lock keys) for the run. Run it from a process with
// no other threads: the handoff case forks its clients.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "bank/account_store.h"
#include "rlock/redis_address.h"
#include "rlock/redis_connection.h"
#include "rlock/release_waiter.h"

namespace rlock::bench {

struct BenchSetup {
  RedisAddress redis;
  std::string conninfo;
  std::filesystem::path dir;  // the clients' records and the startup runs' data directory
  long account = 7000;
  std::chrono::duration<double> seconds{3};  // per case (the round-trip cases share theirs, interleaved)
  int clients = 2;
  std::filesystem::path rlock;           // the binary the startup case spawns
  std::vector<std::string> global_args;  // --redis ... --db ... for it
  WaitMode wait = WaitMode::poll;        // how the strategies' refused workers wait
  std::vector<RedisAddress> redlock;     // the redlock strategy's three servers
};

// One line of the table.
struct BenchCase {
  std::string name;
  std::size_t samples = 0;
  double median_us = 0;
  double p99_us = 0;
  double floor_us = 0;
  nlohmann::json extra = nlohmann::json::object();  // what the case measures besides time

  double ratio() const { return floor_us > 0 ? median_us / floor_us : 0; }
  static BenchCase from(std::string name, const std::vector<double>& samples_us, double floor_us);
};

// Build type, compiler, server versions, machine and its load: (label, value) in print order.
std::vector<std::pair<std::string, std::string>> bench_environment(RedisConnection& redis, bank::AccountStore& store);

// Throws UsageError (one line naming the limit) when `clients` processes, each with a PostgreSQL
// connection of its own, cannot run here now.
void check_capacity(int clients, bank::AccountStore& store);

// rtt-redis, rtt-pg, cycle and fenced-cycle with their floors, one of each per round (so noise
// hits all alike), for setup.seconds. Throws Error when the bench's lock is held by someone else or a write is
// rejected.
std::vector<BenchCase> measure_round_trips(const BenchSetup& setup, RedisConnection& redis, bank::AccountStore& store);

// How long the sleeper floors' processes sleep between rounds.
enum class SleeperGap { short_gap, long_gap };

// This process and a forked one ping-pong through PUBLISH, each asleep on a subscribed connection of its own, 1 ms
// (sleeper-floor) or 50 ms (sleeper-floor-long) between rounds, for setup.seconds and 100 or 40 rounds at the least
// (30 s past setup.seconds at the most). Samples: half a round; floor: their median. Throws Error when the other
// process stops answering for 5 s.
BenchCase measure_sleeper_floor(const BenchSetup& setup, SleeperGap gap);

// The two sleeper floors' medians, which the hand-off cases give their ratios to.
struct SleeperFloors {
  double short_gap_us = 0;
  double long_gap_us = 0;
};

// setup.clients processes loop: acquire (waiting as `mode` says), read, work 0 to 100 ms, write
// balance + 1, release, then wait as a refused client would (the back of the queue), for
// setup.seconds and until the case has 20 hand-offs, 30 s past setup.seconds at the most. Samples: release to the next
// acquisition; floor: 2 Redis RTT (the release reaching Redis and the announcement leaving it, then the SET). extra:
// sections, throughput, Jain's index of acquisitions per client, whether the final balance is 100 + sections, and
// the median's ratios to both `sleepers` floors.
BenchCase measure_handoff(const BenchSetup& setup, WaitMode mode, double redis_rtt_us, const SleeperFloors& sleepers);

// Spawns `rlock worker` (one critical section on the bench's account) until setup.seconds have
// passed (10 runs at least); the first command is seen through MONITOR. Floor: spawning /bin/true
// and reaping it. extra: peak resident memory (median and largest, kB).
BenchCase measure_startup(const BenchSetup& setup);

}  // namespace rlock::bench
