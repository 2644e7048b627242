// A PostgreSQL connection string (bank/account_store.h): described, its TCP address, and the same
// string aimed at another host; none of them may throw, whatever libpq makes of the text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "bank/account_store.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string conninfo(reinterpret_cast<const char*>(data), size);
  if (conninfo.find('\0') != std::string::npos) return 0;  // a C string for libpq
  rlock::bank::describe_conninfo(conninfo);
  rlock::bank::tcp_address_of(conninfo);
  std::string aimed = rlock::bank::conninfo_at(conninfo, "127.0.0.1", 5432);
  if (rlock::bank::describe_conninfo(conninfo) != rlock::bank::kUnparsable &&
      rlock::bank::describe_conninfo(aimed) == rlock::bank::kUnparsable) {
    std::abort();
  }
  return 0;
}
