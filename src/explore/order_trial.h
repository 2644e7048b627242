// An order `rlock explore` found, run as one chaos trial (`rlock chaos --replay-order`,
// docs/chaos.md): the world it needs read from its own tokens (its workers, the events its
// operations make, and the least bound its retries and extensions take), its moves made on a stage
// (stage.h) with the same strategy, judged by chaos's checkers, and kept as a chaos run of one trial
// under chaos/runs/ in the data directory, its fault named by its events (walk_fault).
//
// Functions; not thread-safe (the stage is not).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "explore/stage.h"
#include "explore/world.h"
#include "lab/event.h"
#include "lab/strategy.h"

namespace rlock::explore {

// The world `text` (an order's tokens, or a file holding them) needs, and its order. Throws
// UsageError for a token that is not one (util::printable), an empty order, or a file that cannot
// be read; asks no server.
struct OrderToReplay {
  World world;
  Order order;
};
OrderToReplay order_to_replay(lab::Strategy strategy, const std::string& text);

// The order a run took as its log recorded it, in tokens: each worker's steps that leave an event
// (an acquisition, granted or refused, a read, a write, a release, a watchdog's extension; a fence
// or a claim has none of its own) and the nemesis's operations (nemesis::operations_in), by time.
// What --replay and --replay-order take, for the strategies whose steps all leave an event.
std::string recorded_order(std::vector<lab::Event> events);

struct ReplayedOrder {
  OrderRun run;                   // its times a step a second (steps_as_seconds)
  std::filesystem::path run_dir;  // the chaos run it is kept as
  std::filesystem::path log_dir;  // its run.log and events.jsonl: the kept trial's when it lost
};
// Runs it on `servers` in `lab_dir` (its stage in chaos/stage/, its run in chaos/runs/). Throws as
// Stage and replay() do.
ReplayedOrder run_order_as_trial(const OrderToReplay& replay, const Servers& servers,
                                 const std::filesystem::path& lab_dir, long account, std::uint64_t seed);

}  // namespace rlock::explore
