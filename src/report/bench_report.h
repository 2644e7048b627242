// A bench run in the report: the cases that `rlock bench --json DIR/bench.json` wrote, read into
// typed rows, and drawn as horizontal bars (each case's floor, median and p99 on a scale of its
// own, the durations written beside them), with the environment, a table of the numbers and, where
// the run has one, the price-of-safety table of its strategies.
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

// A row of the price-of-safety table (`strategies` in bench.json): one strategy's increment with
// `clients` client processes on `accounts` accounts.
struct StrategyCost {
  std::string name;
  long clients = 0;
  long accounts = 0;
  double median_us = 0;
  double p99_us = 0;
  double floor_us = 0;
  double ratio = 0;
  double throughput_per_s = 0;
  bool balance_ok = true;
};

struct BenchRun {
  std::filesystem::path dir;  // holds bench.json
  std::vector<std::pair<std::string, std::string>> env;
  std::vector<BenchRow> cases;
  std::vector<StrategyCost> strategies;  // empty in runs from before `rlock bench --strategies`
};

// DIR/bench.json. Throws rlock::Error when it is missing, malformed, lacks a field or is newer
// than this rlock reads.
BenchRun read_bench_run(const std::filesystem::path& dir);

// The run's <section id="id">.
std::string bench_section(const BenchRun& run, Lang lang, std::string_view id);

}  // namespace rlock
