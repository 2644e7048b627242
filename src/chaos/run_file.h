// A stored run's run.json (run_record.h): when and how the campaign was started (its command line
// and the environment that can change a run, passwords blanked), the campaign and its setup. The
// file's fields are defined here once, for the writer (write_run_record) and the reader (load_run);
// the schema is docs/schemas/run.schema.json.
//
// Functions; run_file_json reads this process's command line and environment. Thread-safe.
#pragma once

#include <nlohmann/json.hpp>

#include "chaos/campaign.h"

namespace rlock::chaos {

// 1: format, started, command, environment, campaign, setup. A file without the field is refused.
// 2: the same fields; the run is sealed by its sealed.json (run_record.h). A run of format 1 was
// sealed by compressing its trials alone.
inline constexpr int kRunFileFormat = 2;

// The run.json of `campaign` started now by this process.
nlohmann::json run_file_json(const Campaign& campaign, const ChaosSetup& setup);

struct RunFile {
  Campaign campaign;
  ChaosSetup setup;  // the seed, TTL, wait mode, directories and ports; no server addresses
};

// Throws nlohmann::json::exception for a field missing or of the wrong type, and Error for an
// unknown strategy, fault or wait mode, a name given twice, a client name that is not one, and a
// number out of the range `rlock chaos` takes (campaign.h), the campaign's trials in all included.
RunFile run_file_from(const nlohmann::json& j);

}  // namespace rlock::chaos
