// chaos.json: a chaos campaign's table, as `rlock chaos --json FILE` and `rlock analyze --json FILE`
// write it and each stored run keeps it; `rlock report` reads it. Its fields are defined here
// once, for the writer (chaos/report.cpp) and the reader (report/chaos_report.cpp); the schema is
// docs/schemas/chaos.schema.json.
//
// Plain values and functions on files; thread-safe.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace rlock::results {

// 1: the table of cells. A file without the field is format 1 too (written before it was).
inline constexpr int kChaosFileFormat = 1;

// One cell: a strategy's or a client's row under one fault.
struct ChaosFileCell {
  std::string strategy;  // the row: a strategy's name, or a client's
  std::string fault;
  bool client = false;    // the row is a protocol client's
  long client_error = 0;  // trials that ended in a client's error
  // Trials run in which nothing could be judged; written only where it differs from client_error
  // (each client error unjudged, as in the files written before a client error could be judged).
  long unjudged = 0;
  long not_run = 0;  // trials not run
  bool expected_safe = false;
  long trials = 0;  // trials run (client errors among them); trials - unjudged were judged
  long anomalies = 0;
  long lost_updates = 0;
  long long lost_amount = 0;
  long overlaps = 0;
  long failed = 0;
  long long dropped_amount = 0;
  long unknown = 0;
  long stuck = 0;
  long unwritten = 0;  // a client's increments reported done with no write applied, no error
  long created = 0;    // a client's trials whose balance holds money no increment added
  long long created_amount = 0;
  long struck = 0;
  double rate = 0;    // of judged trials with an anomaly
  double ci_low = 0;  // its 95% Wilson interval
  double ci_high = 0;
  double median_trial_ms = 0;
  std::vector<std::string> kept_trials;  // numbers of the anomalous trials
  std::string not_applicable;            // why the cell cannot fail; empty when it can
  std::string replica;                   // a split failover's half: "lagging" or "in-sync"; empty otherwise
  // A cell of histories (chaos/workload.h): its increments, those a stale write lost, the nemesis
  // operations struck and those followed by a loss. Written only when increments is above 0.
  long increments = 0, lost_increments = 0, faults_struck = 0, faults_followed_by_loss = 0;
};

struct ChaosFile {
  std::uint64_t seed = 0;
  long ttl_ms = 0;
  long trials_per_cell = 0;
  std::string wait;  // how refused workers waited: poll, notify or queue
  std::vector<ChaosFileCell> cells;
};

nlohmann::json to_json(const ChaosFile& file);
// Throws nlohmann::json::exception for a field missing or of the wrong type. The fields added after
// the first files (client, client_error, not_run, unknown, stuck, unwritten, created,
// created_amount, struck, not_applicable, replica) may be missing: they read as empty; a missing
// unjudged reads as client_error.
ChaosFile chaos_file_from(const nlohmann::json& j);

// Throws Error when the file cannot be written.
void write_chaos_file(const std::filesystem::path& path, const ChaosFile& file);
// Throws Error, in one line naming the file, when it is missing, not JSON, of a newer format, or
// lacks a field.
ChaosFile read_chaos_file(const std::filesystem::path& path);

}  // namespace rlock::results
