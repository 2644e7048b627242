// One order of the world on the real servers: the gated workers (strategy/worker.h), one thread
// each, driven through Turns one move at a time; the explorer's events made to happen (the lock key
// deleted as its TTL running out, a pause and its end, the Redis crashed and started again, empty,
// a failover to a replica that never got the lock); and the chaos checkers' verdict on what the
// order left (checker/judge.h).
//
// A world with the failover event runs on a failover pair of the stage's own (host/failover_pair.h)
// instead of the given Redis: each order cuts the replica's replication once the keys are clean, so
// the lock never reaches it, and the failover copies the lock's other keys (the fence counter) to it
// before the primary dies; an order that failed over leaves the next a new pair. Every order starts
// from a clean account and clean keys. The stage keeps the workers' threads and connections from
// one order to the next; each order's log is kept in memory (OrderRun::events), written to no file.
// Not thread-safe: one explorer drives it.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "chaos/faults/fault.h"
#include "checker/judge.h"
#include "explore/world.h"
#include "lab/event.h"
#include "lab/log_dir.h"
#include "rlock/redis_address.h"

namespace rlock::explore {

struct Servers {
  RedisAddress redis;
  std::string conninfo;
  int failover_port = 6420;  // the failover event's primary, and its replica on the next port
};

// The fault a walk of `world` keeps its orders under: the operations its events make, joined by '+'
// (chaos::explored_fault), so a stored walk names its events.
chaos::Fault walk_fault(const World& world);

// An order run: its moves, at each point how many moves were enabled and which was taken (a choice
// may take several moves: Walk), when each move started (seconds since the run's start), and its
// judged trial, and its log's events.
struct OrderRun {
  Order order;
  std::vector<std::size_t> widths;
  std::vector<std::size_t> picks;
  std::vector<double> started;
  checker::JudgedTrial judged;
  std::vector<lab::Event> events;

  // Money lost or two holders' sections overlapping: what the explorer counts.
  bool losing() const;
};

// Which orders a run may take. every_order: every move the world enables, pause and resume among
// them. one_per_class: one order for each sequence of the moves that change what the servers hold
// (docs/explore.md, the reduction): no extension (time never runs out by itself, so a lease's PTTL
// decides nothing), no pause, but around an expiry that needs its holder paused (the watchdog's),
// which comes as one choice, `pause:X expire resume:X`.
enum class Walk { every_order, one_per_class };

// Picks one of the moves enabled at point `depth` of the order (an index into `enabled`).
using Chooser = std::function<std::size_t(const std::vector<Move>& enabled, std::size_t depth)>;

class Stage {
 public:
  // Opens the workers' connections and the stage's own. Throws Error when a server does not answer.
  Stage(World world, Servers servers, lab::LogDir dir, long account);
  ~Stage();
  Stage(const Stage&) = delete;
  Stage& operator=(const Stage&) = delete;

  // Runs one order, asking `choose` at each point, until every worker finished; the trial is
  // numbered `number`. Throws Error when a server fails the stage itself, or `choose` does.
  OrderRun run(const Chooser& choose, int number, Walk walk = Walk::every_order);

  // The floor an order's time is measured against: `orders` orders' round trips done back to back
  // on the stage's connections, with no gate, thread, log or judging, in seconds. Each cleans the
  // keys and the account as run() does, makes each worker's increment ungated
  // (strategy::RepeatedWorker: the same commands, the lock granted at once), reads the lock key as
  // often as run()'s orders did on average (before offering an expiry), and reads the balance.
  double floor_seconds(int orders);

  const lab::LogDir& dir() const;
  const World& world() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rlock::explore
