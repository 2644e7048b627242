// One line of a stored run's trials.jsonl (run_record.h): a trial's identity and what judge()
// needs of it (judge.h), history included. The line's fields are defined here once, for the
// writer (record_trial) and the reader (load_run); the schema is docs/schemas/trial.schema.json.
//
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include "checker/judge.h"

namespace rlock::store {

// 1: the trial's key, its outcome fields and its history. A line without the field is refused.
inline constexpr int kTrialLineFormat = 1;

// A trial's identity in a run: its row, whether that is a client, its fault and its number.
using TrialKey = std::tuple<std::string, bool, std::string, int>;
TrialKey trial_key(const chaos::TrialSpec& spec);

nlohmann::json trial_line(const checker::TrialInput& input);
// The key a line names. Throws nlohmann::json::exception when it lacks one of its fields.
TrialKey trial_key_of(const nlohmann::json& line);
// The line of the campaign's trial `spec` read back. Throws nlohmann::json::exception, or Error
// for a history entry that is not one, for a field missing or of the wrong type.
checker::TrialInput trial_input_from(const nlohmann::json& line, const chaos::TrialSpec& spec);

}  // namespace rlock::store
