// A chaos run in the report: the table that `rlock chaos --json DIR/chaos.json` wrote, read into
// typed cells, and drawn as a strategy x fault heat map (the colour says the anomaly rate, the
// numbers in each cell say it too, for greyscale and for readers), the run's settings, and under
// the map, for each cell with kept trials, its figures and the timelines of the first kept trials
// (DIR/trials/STRATEGY-FAULT-N, or DIR/chaos/trials/..., where `rlock --dir DIR chaos` keeps
// them). A kept trial is found by its name in a listing of that directory, never by joining a name
// read from chaos.json to a path; every name is escaped for where it goes (page.h). Time and memory
// are about linear in the cells: a table whose cells leave most of its rows by columns empty is
// refused. Reads files only; thread-safe.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <string_view>

#include "lab/wording.h"
#include "results/chaos_file.h"

namespace rlock::report {

struct ChaosRun {
  std::filesystem::path dir;     // holds chaos.json
  std::filesystem::path trials;  // the kept trials: DIR/trials, or DIR/chaos/trials (`rlock --dir DIR chaos`)
  results::ChaosFile table;
  std::set<std::string> kept;  // the names in `trials`
};

// Which kept trials the section draws: the first of each cell (at most kTimelinesACell), or for each
// row only its shortest loss: of the kept trials of its cells that lost money, the one whose events
// span the least time (a library's card, `rlock report --shortest-loss`).
enum class Timelines { first_of_each_cell, shortest_loss_of_each_row };

// At most this many timelines a cell; the other kept trials are named.
inline constexpr std::size_t kTimelinesACell = 3;

// DIR/chaos.json (results/chaos_file.h) and the names of its kept trials. Throws rlock::Error
// when it is missing, malformed, lacks a field, is newer than this rlock reads, or its cells do not
// fill a table (more empty places than cells).
ChaosRun read_chaos_run(const std::filesystem::path& dir);

// The run's <section id="id">; anchors inside it start with `id`.
std::string chaos_section(const ChaosRun& run, lab::Lang lang, std::string_view id,
                          Timelines timelines = Timelines::first_of_each_cell);

}  // namespace rlock::report
