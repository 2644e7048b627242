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
  double seconds = 0;                // the whole walk
  double stage_seconds = 0;          // of which in the orders' runs (clean-up, moves, judging)
};
// Walks every order, calling `each` with each run as it ends. Throws Error when an order does not
// repeat its prefix (the servers answered differently), or the stage throws.
Exploration explore_all(Stage& stage, const std::function<void(const OrderRun&)>& each);

// Replays `order`: UsageError naming the first move that is not enabled where the order puts it.
// An order that ends while workers have steps left is completed with their steps (and the paused
// worker's resume), the first enabled at each point; `added` says how many moves that took.
OrderRun replay(Stage& stage, const Order& order, int number, std::size_t& added);

}  // namespace rlock::explore
