// The protocol codec on any line: a line either decodes, or is refused as BadMessage (codec.h's
// contract); anything else escaping is a bug. A decoded message encodes to a line that decodes again.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "protocol/codec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view line(reinterpret_cast<const char*>(data), size);
  try {
    rlock::protocol::decode_harness_message(rlock::protocol::encode(rlock::protocol::decode_harness_message(line)));
  } catch (const rlock::protocol::BadMessage&) {
  }
  try {
    rlock::protocol::decode_client_message(rlock::protocol::encode(rlock::protocol::decode_client_message(line)));
  } catch (const rlock::protocol::BadMessage&) {
  }
  return 0;
}
