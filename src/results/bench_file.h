// bench.json: a bench run, as `rlock bench --json FILE` writes it and each kept run holds it;
// `rlock report` reads it. Its fields are defined here once, for the writer (cli/cmd_bench.cpp)
// and the reader (report/bench_report.cpp); the schema is docs/schemas/bench.schema.json.
//
// Plain values and functions on files; thread-safe.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace rlock::results {

// 1: cases, strategy rows and the environment. A file without the field is format 1 too.
inline constexpr int kBenchFileFormat = 1;

// One case: its times against its floor, in microseconds.
struct BenchFileCase {
  std::string name;
  long samples = 0;
  double median_us = 0;
  double p99_us = 0;
  double floor_us = 0;
  double ratio = 0;  // median over floor
  // What the case measured besides time (clients, jain, throughput_per_s, balances, memory), kept
  // beside the fields above in the file.
  nlohmann::json extra = nlohmann::json::object();
};

// A row of the price of safety: one strategy's (or protocol client's) increments with `clients`
// client processes on `accounts` accounts.
struct BenchFileRow {
  std::string name;
  long clients = 0;
  long accounts = 0;
  long increments = 0;
  double median_us = 0;
  double p99_us = 0;
  double floor_us = 0;
  double ratio = 0;
  double throughput_per_s = 0;
  bool balance_ok = true;
  bool client = false;  // a protocol client's row (--client)
  long failed = 0;      // a client's increments that gave up
};

struct BenchFile {
  nlohmann::json env = nlohmann::json::object();  // label: value, as printed first
  std::vector<BenchFileCase> cases;
  std::vector<BenchFileRow> strategies;
};

nlohmann::json to_json(const BenchFile& file);
// Throws nlohmann::json::exception for a field missing or of the wrong type. `strategies` (and a
// row's increments, client and failed) may be missing, in runs from before they were written.
BenchFile bench_file_from(const nlohmann::json& j);

// Throws Error when the file cannot be written.
void write_bench_file(const std::filesystem::path& path, const BenchFile& file);
// Throws Error, in one line naming the file, when it is missing, not JSON, of a newer format, or
// lacks a field.
BenchFile read_bench_file(const std::filesystem::path& path);

}  // namespace rlock::results
