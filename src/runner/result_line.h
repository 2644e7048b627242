// A trial's result as one JSON object, and back: how a job process reports each trial it judged to
// the campaign (job_runner.h), one line each. The one codec of TrialResult; the trial's input is
// stored by run_record.h.
//
// Pure functions; thread-safe.
#pragma once

#include <nlohmann/json.hpp>

#include "chaos/chaos.h"
#include "checker/judge.h"

namespace rlock::runner {

nlohmann::json result_json(const checker::TrialResult& result);
// The result of `spec` back; a field missing reads as its default.
checker::TrialResult result_from(const nlohmann::json& line, const chaos::TrialSpec& spec);

}  // namespace rlock::runner
