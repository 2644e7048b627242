// A stored run's sealed.json text, read as load_run reads it (run_record.h): JSON that parses, its
// format checked, then its fields, refused by rlock::Error; anything else escaping is a bug.
#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "results/file_format.h"
#include "rlock/error.h"
#include "store/run_record.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  nlohmann::json j = nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return 0;
  try {
    rlock::results::check_format(j, rlock::store::kSealFileFormat, "sealed.json", 0);
    rlock::store::seal_from(j);
  } catch (const rlock::Error&) {
  }
  return 0;
}
