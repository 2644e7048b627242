#include "rlock/lock_key.h"

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock {
namespace {

// Whether Redis Cluster would hash only part of `name`: it holds a `{` followed, later, by a `}`
// with something between them.
bool has_hash_tag(const std::string& name) {
  auto open = name.find('{');
  if (open == std::string::npos) return false;
  auto close = name.find('}', open + 1);
  return close != std::string::npos && close > open + 1;
}

}  // namespace

LockKey LockKey::named(const std::string& name) {
  if (name.empty()) throw UsageError("a lock needs a name: the resource name is empty");
  if (has_hash_tag(name)) {
    return LockKey{name,
                   fmt::format("{}:fence", name),
                   fmt::format("{}:released", name),
                   fmt::format("{}:queue", name),
                   fmt::format("{}:queue:deadlines", name),
                   fmt::format("{}:wake:", name),
                   fmt::format("{}:queue:claims", name)};
  }
  if (name.find('}') != std::string::npos) {
    throw UsageError(
        fmt::format("lock name '{}': a '}}' outside a {{hash tag}} leaves no key in its slot for the fence", name));
  }
  return LockKey{name,
                 fmt::format("{{{}}}:fence", name),
                 fmt::format("{}:released", name),
                 fmt::format("{{{}}}:queue", name),
                 fmt::format("{{{}}}:queue:deadlines", name),
                 fmt::format("{}:wake:", name),
                 fmt::format("{{{}}}:queue:claims", name)};
}

LockKey LockKey::for_account(long account) { return named(fmt::format("lock:account:{}", account)); }

}  // namespace rlock
