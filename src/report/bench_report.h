// A bench run in the report: the cases that `rlock bench --json DIR/bench.json` wrote, read into
// typed rows, and drawn as horizontal bars (each case's floor, median and p99 on a scale of its
// own, the durations written beside them), with the environment and a table of the numbers.
// Reads files only; thread-safe.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "lab/messages.h"

namespace rlock {

struct BenchRow {
  std::string name;
  long samples = 0;
  double median_us = 0;
  double p99_us = 0;
  double floor_us = 0;
  double ratio = 0;
  nlohmann::json extra = nlohmann::json::object();  // what the case measured besides time
};

struct BenchRun {
  std::filesystem::path dir;  // holds bench.json
  std::vector<std::pair<std::string, std::string>> env;
  std::vector<BenchRow> cases;
};

// DIR/bench.json. Throws rlock::Error when it is missing, malformed, lacks a field or is newer
// than this rlock reads.
BenchRun read_bench_run(const std::filesystem::path& dir);

// The run's <section id="id">.
std::string bench_section(const BenchRun& run, Lang lang, std::string_view id);

}  // namespace rlock
