// A chaos run in the report: the table that `rlock chaos --json DIR/chaos.json` wrote, read into
// typed cells, and drawn as a strategy x fault heat map (the colour says the anomaly rate, the
// numbers in each cell say it too, for greyscale and for readers), the run's settings, and under
// the map, for each cell with kept trials, its figures and the timelines of the first kept trials
// (DIR/trials/STRATEGY-FAULT-N, or DIR/chaos/trials/..., where `rlock --dir DIR chaos` keeps
// them). Reads files only; thread-safe.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "lab/messages.h"

namespace rlock {

struct ChaosCell {
  std::string strategy;
  std::string fault;
  bool expected_safe = false;
  long trials = 0;
  long anomalies = 0;
  long lost_updates = 0;
  long long lost_amount = 0;
  long overlaps = 0;
  long failed = 0;
  long long dropped_amount = 0;
  long unknown = 0;  // these four: 0 in a JSON written before they were counted
  long stuck = 0;
  long struck = 0;
  long not_run = 0;
  double rate = 0;
  double ci_low = 0;
  double ci_high = 0;
  double median_trial_ms = 0;
  std::vector<std::string> kept_trials;  // trial numbers
};

struct ChaosRun {
  std::filesystem::path dir;     // holds chaos.json
  std::filesystem::path trials;  // the kept trials: DIR/trials, or DIR/chaos/trials (`rlock --dir DIR chaos`)
  std::uint64_t seed = 0;
  long ttl_ms = 0;
  long trials_per_cell = 0;
  std::string wait;
  std::string command;  // empty when the JSON has none
  nlohmann::json env = nlohmann::json::object();
  std::vector<ChaosCell> cells;
};

// At most this many timelines a cell; the other kept trials are named.
inline constexpr std::size_t kTimelinesACell = 3;

// DIR/chaos.json. Throws rlock::Error when it is missing, malformed, lacks a field or is newer
// than this rlock reads.
ChaosRun read_chaos_run(const std::filesystem::path& dir);

// The run's <section id="id">; anchors inside it start with `id`.
std::string chaos_section(const ChaosRun& run, Lang lang, std::string_view id);

}  // namespace rlock
