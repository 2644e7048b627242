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
  // The keys go in the lock's slot: a name with a hash tag names it; otherwise the whole name, which
  // becomes their tag. The channels have no slot.
  std::string slot = name;
  if (!has_hash_tag(name)) {
    if (name.find('}') != std::string::npos) {
      throw UsageError(
          fmt::format("lock name '{}': a '}}' outside a {{hash tag}} leaves no key in its slot for the fence", name));
    }
    slot = fmt::format("{{{}}}", name);
  }
  return LockKey{name,
                 slot + ":fence",
                 name + ":released",
                 slot + ":queue",
                 slot + ":queue:deadlines",
                 name + ":wake:",
                 slot + ":queue:claims"};
}

LockKey LockKey::for_account(long account) { return named(fmt::format("lock:account:{}", account)); }

}  // namespace rlock
