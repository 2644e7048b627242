// A Redis URL (rlock/redis_address.h): an address, or rlock::UsageError; anything else escaping is a
// bug. An address parsed gives back a URL that parses to the same server, and blank_passwords takes
// any text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "rlock/error.h"
#include "rlock/redis_address.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  rlock::blank_passwords(text);
  rlock::RedisAddress address;
  try {
    address = rlock::RedisAddress::parse(text);
  } catch (const rlock::UsageError&) {
    return 0;
  }
  address.display();
  rlock::RedisAddress again = rlock::RedisAddress::parse(address.url());
  bool same = again.host == address.host && again.port == address.port && again.socket == address.socket &&
              again.user == address.user && again.password == address.password && again.db == address.db;
  if (!same) std::abort();
  return 0;
}
