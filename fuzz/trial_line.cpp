// One line of a stored run's trials.jsonl, read as load_run reads it (trial_line.h): its key, then
// the trial, refused by nlohmann::json::exception or rlock::Error; anything else escaping is a bug.
#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "rlock/error.h"
#include "store/trial_line.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  nlohmann::json line = nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (line.is_discarded()) return 0;
  try {
    rlock::store::trial_key_of(line);
    rlock::store::trial_input_from(line, rlock::chaos::TrialSpec{});
  } catch (const nlohmann::json::exception&) {
  } catch (const rlock::Error&) {
  }
  return 0;
}
