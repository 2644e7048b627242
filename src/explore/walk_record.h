// A walk kept as a chaos run (store/run_record.h), so that `rlock report` and `rlock analyze` read
// it: explore/runs/<UTC time>-seed<S>/ under the data directory, with run.json (a campaign of the one
// strategy under the fault its events make, walk_fault: `expire+failover`, a trial an order), trials.jsonl.gz (each
// order's history, judged again by analyze), chaos.json (the table), sealed.json; and, of its own, orders.txt (line
// N+1: trial N's order) and the shortest losing order's run kept as a chaos trial's directory, trials/STRATEGY-FAULT-N/
// (run.log, events.jsonl, timeline.svg), its times a step a second.
//
// Writes files; not thread-safe (one walk, one writer).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

#include "checker/tally.h"
#include "explore/explorer.h"
#include "explore/stage.h"
#include "lab/append_file.h"

namespace rlock::explore {

class WalkRecord {
 public:
  // The run directory chosen (not yet written) under explore_dir/runs.
  // The run is kept in `run_dir`, or when it is empty, one chosen under explore_dir/runs.
  WalkRecord(const World& world, const Servers& servers, const std::filesystem::path& explore_dir, std::uint64_t seed,
             const std::filesystem::path& run_dir = {});

  // Appends the order's trial line and order line; names the kept trial's directory after it when
  // the order is the shortest losing one so far.
  void add(const OrderRun& run);
  // Writes run.json, chaos.json and the shortest's files (walk.shortest's log), then seals the run.
  // Returns the shortest's
  // directory (empty when none lost). Throws Error when a file cannot be written.
  // The shortest's history and verdict are put in step numbers (steps_as_seconds).
  std::filesystem::path finish(Exploration& walk);

  const std::filesystem::path& run_dir() const { return run_dir_; }

 private:
  std::filesystem::path shortest_dir(const OrderRun& run) const;

  World world_;
  Servers servers_;
  std::filesystem::path explore_dir_;
  std::uint64_t seed_;
  std::filesystem::path run_dir_;
  std::vector<checker::Cell> cells_;           // the table, tallied as the orders come
  std::optional<lab::AppendFile> orders_;      // orders.txt, a line an order
  std::optional<std::filesystem::path> kept_;  // the shortest losing order's directory so far
  std::size_t kept_size_ = 0;
};

// The run of `order` in `dir` with each event's time (and sent_at) replaced by the number of the
// move during which it was recorded, so a log or a drawing gives a step a second: events.jsonl and
// run.log written back, and the order's history and verdict (the same: the moves keep their order)
// in step numbers too, so that a replay prints the same words. Throws Error as read_events does.
void steps_as_seconds(const lab::LogDir& dir, OrderRun& order);

}  // namespace rlock::explore
