// A scenario file's text (scenarios/NAME.json), read as read_scenario_set reads it
// (scenario/scenario_file.h): refused by rlock::Error, or a scenario whose every field is in its
// range; anything else escaping is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "protocol/client_list.h"
#include "rlock/error.h"
#include "scenario/scenario_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    rlock::scenario::Scenario s = rlock::scenario::read_scenario(text);
    bool in_range = rlock::protocol::is_client_name(s.name) && rlock::protocol::is_client_name(s.client) &&
                    !s.versions.empty() && !s.loss.empty() && !s.sequence.empty() &&
                    s.workers >= rlock::scenario::kMinWorkers && s.workers <= rlock::scenario::kMaxWorkers &&
                    s.trials >= 1 && s.trials <= rlock::scenario::kMaxScenarioTrials;
    for (const std::string& v : s.versions) in_range = in_range && rlock::protocol::is_version_number(v);
    if (!in_range) std::abort();
  } catch (const rlock::Error&) {
  }
  return 0;
}
