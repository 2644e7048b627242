// The walk over the orders of a world (world.h) on one stage (stage.h), one order for each sequence
// of the moves that reach the servers (Walk::one_per_class, docs/explore.md), depth-first and
// stateless: each order is run from the start, from a clean account and clean keys; the next one
// takes the same moves as the last up to its deepest point with a move not yet tried, takes that
// move, and then the first enabled move at each later point. The walk relies on the servers being
// deterministic: the same moves give the same enabled moves (an order replayed gives the same run).
//
// Before walking, the number of orders is estimated by Knuth's estimator: random orders, each
// counting the product of the enabled moves' numbers along it, averaged. Functions on a stage;
// not thread-safe (the stage is not).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "explore/stage.h"
#include "explore/world.h"

namespace rlock::explore {

struct Estimate {
  double orders = 0;        // the estimated number of orders
  double ms_per_order = 0;  // the probes' mean time
  int probes = 0;
};
Estimate estimate_orders(Stage& stage, int probes, std::uint64_t seed);

struct Exploration {
  long long orders = 0;
  long long losing = 0;
  std::optional<OrderRun> shortest;  // the shortest losing order, the first walked of equal length
  double seconds = 0;                // the whole walk, the floor's orders not counted
  double stage_seconds = 0;          // of which in the orders' runs (clean-up, moves, judging), per stage
  int floor_orders = 0;              // Stage::floor_seconds, measured among the walk's orders
  double floor_seconds = 0;

  // How many times the floor's time an order of the walk took; 0 without a floor.
  double floor_ratio() const;
};
// Walks every order on the stages at once (each on an account of its own), calling `each` with each
// run in the walk's order, numbered in it, as if one stage had walked them all (the shortest is
// run again on the first stage, so its log names the first's account). After every
// `floor_every`-th order of a stage, that stage runs one floor order (at least kMinFloorOrders in
// all). Throws Error when an order does not repeat its prefix (the servers answered differently),
// or a stage throws, once every stage stopped.
inline constexpr int kMinFloorOrders = 20;
Exploration explore_all(const std::vector<Stage*>& stages, const std::function<void(const OrderRun&)>& each,
                        int floor_every = 10);

// Replays `order`: UsageError naming the first move that is not enabled where the order puts it.
// An order that ends while workers have steps left is completed with their steps (and the paused
// worker's resume), the first enabled at each point; `added` says how many moves that took.
OrderRun replay(Stage& stage, const Order& order, int number, std::size_t& added);

}  // namespace rlock::explore
