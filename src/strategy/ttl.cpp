// ttl: the article's worker. The lock expires after its TTL whatever the holder is doing; the read
// and the write are unchecked (one_lock.h's pass as it stands).
#include "strategy/one_lock.h"
#include "strategy/strategies.h"

namespace rlock::strategy {

std::unique_ptr<Incrementer> make_ttl(const Setting& setting, Parts parts) {
  return std::make_unique<OneLock>(setting, parts, false);
}

}  // namespace rlock::strategy
