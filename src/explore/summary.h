// What `rlock explore` says of a walk: its line on stdout (the orders, the losing ones, the time),
// the shortest losing order as tokens and as its run's log, and the --json file (its fields defined
// here once; schema docs/schemas/explore.schema.json).
//
// Functions; printing shares stdout, so not thread-safe.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "explore/explorer.h"
#include "explore/world.h"

namespace rlock::explore {

// 1: {format, explored: [{strategy, workers, events, bound, estimated_orders, orders, losing,
// shortest (its tokens, or null), seconds, orders_per_second, stage_seconds, run_dir,
// floor_orders_per_second, floor_ratio}]}; the floor's two fields came later, in the same format.
inline constexpr int kExploreFileFormat = 1;

// The events as --events names them, comma-separated; "none" for none.
std::string events_text(const World& world);

// What a walk of `world` found, as --json lists it.
struct Explored {
  World world;
  Estimate estimate;
  Exploration walk;
  std::filesystem::path run_dir;
  std::filesystem::path shortest_dir;  // the shortest losing order's kept run; empty when none lost
};

void print_walk(const Explored& explored);
// The run of one order (its verdict, then its log, a step a second) as replay prints it.
void print_order_run(const OrderRun& run, const std::filesystem::path& dir);

nlohmann::json explore_json(const std::vector<Explored>& walks);

}  // namespace rlock::explore
