// A chaos run in the report: the table that `rlock chaos --json DIR/chaos.json` wrote, read into
// typed cells, and drawn as a strategy x fault heat map (the colour says the anomaly rate, the
// numbers in each cell say it too, for greyscale and for readers), the run's settings, and under
// the map, for each cell with kept trials, its figures and the timelines of the first kept trials
// (DIR/trials/STRATEGY-FAULT-N, or DIR/chaos/trials/..., where `rlock --dir DIR chaos` keeps
// them). Reads files only; thread-safe.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "lab/messages.h"
#include "runfiles/chaos_file.h"

namespace rlock::report {

struct ChaosRun {
  std::filesystem::path dir;     // holds chaos.json
  std::filesystem::path trials;  // the kept trials: DIR/trials, or DIR/chaos/trials (`rlock --dir DIR chaos`)
  runfiles::ChaosFile table;
};

// At most this many timelines a cell; the other kept trials are named.
inline constexpr std::size_t kTimelinesACell = 3;

// DIR/chaos.json (runfiles/chaos_file.h). Throws rlock::Error when it is missing, malformed, lacks
// a field or is newer than this rlock reads.
ChaosRun read_chaos_run(const std::filesystem::path& dir);

// The run's <section id="id">; anchors inside it start with `id`.
std::string chaos_section(const ChaosRun& run, lab::Lang lang, std::string_view id);

}  // namespace rlock::report
