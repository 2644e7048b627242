// A stored run's run.json (run_record.h): when and how the campaign was started (its command line
// and the environment that can change a run, passwords blanked), the campaign and its setup. The
// file's fields are defined here once, for the writer (write_run_record) and the reader (load_run);
// the schema is docs/schemas/run.schema.json.
//
// Functions; run_file_json reads this process's command line and environment. Thread-safe.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "chaos/campaign.h"

namespace rlock::store {

// 1: format, started, command, environment, campaign, setup. A file without the field is refused.
// 2: the same fields; the run is sealed by its sealed.json (run_record.h). A run of format 1 was
// sealed by compressing its trials alone.
// 3: also rlock_version, and in a shard's run `shard` (index, count, fingerprint): its trials are
// those of its shard alone, which a reader of format 2 would count as never run. Its setup's
// `netns` (--netns) is read as false where it is missing: runs stored before it was written. A
// history's setup has its workers, its `increments` or `duration_s`, and its `nemesis` schedule
// when one was given (runs stored before they were written have the workers alone).
inline constexpr int kRunFileFormat = 3;

// This build's version (CMake's project version), written in every run.json.
std::string_view rlock_version();

// The run.json of `campaign` started now by this process.
nlohmann::json run_file_json(const chaos::Campaign& campaign, const chaos::ChaosSetup& setup);

struct RunFile {
  chaos::Campaign campaign;   // its shard 1/1 unless the file names one
  chaos::ChaosSetup setup;    // the seed, TTL, wait mode, directories and ports; no server addresses
  std::string rlock_version;  // empty before format 3
};

// Throws nlohmann::json::exception for a field missing or of the wrong type, and Error for an
// unknown strategy, fault or wait mode, a name given twice, a client name that is not one, a
// number out of the range `rlock chaos` takes (campaign.h), the campaign's trials in all included,
// a history's workload or schedule that chaos would refuse, and a shard out of its range or whose
// fingerprint is not its campaign's.
RunFile run_file_from(const nlohmann::json& j);

// The plan's fingerprint: the fields the shards of one campaign share (seed, strategies, clients,
// faults, trials, TTL, wait mode, --netns and rlock's version: every option that changes what a
// trial does), as JSON in a fixed order, and a digest of them (16 hexadecimal digits, FNV-1a of
// the JSON; `netns` false is left out of it, as the shards stored before it were hashed).
nlohmann::json plan_fields(const RunFile& run);
std::string fingerprint(const RunFile& run);

}  // namespace rlock::store
