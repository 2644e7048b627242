// bench.json's text (results/bench_file.h): JSON that parses, then its cases, refused by
// nlohmann::json::exception; anything else escaping is a bug. A file read writes back to one that
// reads again.
#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "results/bench_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  nlohmann::json j = nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return 0;
  try {
    rlock::results::bench_file_from(rlock::results::to_json(rlock::results::bench_file_from(j)));
  } catch (const nlohmann::json::exception&) {
  }
  return 0;
}
