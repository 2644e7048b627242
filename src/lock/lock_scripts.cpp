#include "lock/lock_scripts.h"

namespace rlock::scripts {

// Deletes the lock while it holds ARGV[1] and announces it on the channel ARGV[2] (the message is
// the released token, so a waiter can tell another holder's release from its own).
constexpr std::string_view kRelease = R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  redis.call('PUBLISH', ARGV[2], ARGV[1])
  return 1
end
return 0
)lua";

// Returns {1 if extended else 0, PTTL afterwards}: one round trip for the watchdog's report.
constexpr std::string_view kExtend = R"lua(
local extended = 0
if redis.call('GET', KEYS[1]) == ARGV[1] then
  extended = redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return {extended, redis.call('PTTL', KEYS[1])}
)lua";

// Returns the new fence, or 0 when the lock is busy (fences start at 1).
constexpr std::string_view kAcquireFenced = R"lua(
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return 0
)lua";

// Returns {1 if the key holds ARGV[1] else 0, PTTL}.
constexpr std::string_view kHolds = R"lua(
return {redis.call('GET', KEYS[1]) == ARGV[1] and 1 or 0, redis.call('PTTL', KEYS[1])}
)lua";

}  // namespace rlock::scripts
