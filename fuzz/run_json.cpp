// A stored run's run.json text, read as load_run reads it (run_file.h): JSON that parses, then its
// fields, refused by nlohmann::json::exception or rlock::Error; anything else escaping is a bug.
#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "rlock/error.h"
#include "store/run_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  nlohmann::json j = nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return 0;
  try {
    rlock::store::run_file_from(j);
  } catch (const nlohmann::json::exception&) {
  } catch (const rlock::Error&) {
  }
  return 0;
}
