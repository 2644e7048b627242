#include "rlock/lock_key.h"

#include <fmt/format.h>

namespace rlock {

LockKey LockKey::for_account(long account) {
  std::string lock = fmt::format("lock:account:{}", account);
  return LockKey{lock, fmt::format("{{{}}}:fence", lock), fmt::format("{}:released", lock)};
}

}  // namespace rlock
