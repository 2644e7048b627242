// A bench run in the report: the cases that `rlock bench --json DIR/bench.json` wrote, read into
// typed rows, and drawn as horizontal bars (each case's floor, median and p99 on a scale of its
// own, the durations written beside them), with the environment, a table of the numbers and, where
// the run has one, the price-of-safety table of its strategies.
// Reads files only; thread-safe.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "lab/wording.h"
#include "results/bench_file.h"

namespace rlock::report {

struct BenchRun {
  std::filesystem::path dir;  // holds bench.json
  results::BenchFile file;
};

// DIR/bench.json (results/bench_file.h). Throws rlock::Error when it is missing, malformed, lacks
// a field or is newer than this rlock reads.
BenchRun read_bench_run(const std::filesystem::path& dir);

// The run's <section id="id">.
std::string bench_section(const BenchRun& run, lab::Lang lang, std::string_view id);

}  // namespace rlock::report
