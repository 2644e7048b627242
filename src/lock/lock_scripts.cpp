#include "lock/lock_scripts.h"

namespace rlock::scripts {

// Drops the queue's heads whose ticket deadline passed (a waiter that died or stopped asking);
// leaves `head` the live head or false, and `now` the server's time in ms.
#define RLOCK_DROP_DEAD_HEADS(QUEUE, DEADLINES)                             \
  "local t = redis.call('TIME')\n"                                          \
  "local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)\n" \
  "local head = redis.call('LINDEX', " QUEUE                                \
  ", 0)\n"                                                                  \
  "while head do\n"                                                         \
  "  local deadline = redis.call('ZSCORE', " DEADLINES                      \
  ", head)\n"                                                               \
  "  if deadline and tonumber(deadline) >= now then break end\n"            \
  "  redis.call('LPOP', " QUEUE                                             \
  ")\n"                                                                     \
  "  redis.call('ZREM', " DEADLINES                                         \
  ", head)\n"                                                               \
  "  head = redis.call('LINDEX', " QUEUE                                    \
  ", 0)\n"                                                                  \
  "end\n"

// The release's announcements: the token to the notified waiters, a wake-up to the queue's head.
#define RLOCK_ANNOUNCE                                               \
  "redis.call('PUBLISH', ARGV[2], ARGV[1])\n" RLOCK_DROP_DEAD_HEADS( \
      "KEYS[2]", "KEYS[3]") "if head then redis.call('PUBLISH', ARGV[3] .. head, head) end\n"

// Deletes the lock while it holds ARGV[1] and announces it on the channel ARGV[2] (the message is
// the released token, so a waiter can tell another holder's release from its own). No clock, no
// queue: the release of a lock whose waiters do not queue.
constexpr std::string_view kRelease = R"lua(
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('PUBLISH', ARGV[2], ARGV[1])
return 1
)lua";

constexpr std::string_view kReleaseQueued =
    "if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end\n"
    "redis.call('DEL', KEYS[1])\n" RLOCK_ANNOUNCE "return 1\n";

constexpr std::string_view kAnnounce = RLOCK_ANNOUNCE "return 1\n";

// Refused, the ticket's deadline moves on, and the queue's keys live as long as the last deadline.
constexpr std::string_view kAcquireQueued = RLOCK_DROP_DEAD_HEADS("KEYS[3]", "KEYS[4]") R"lua(
if (not head or head == ARGV[3]) and redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  if head then
    redis.call('LPOP', KEYS[3])
    redis.call('ZREM', KEYS[4], ARGV[3])
  end
  if ARGV[5] == '1' then return redis.call('INCR', KEYS[2]) end
  return 1
end
if not redis.call('ZSCORE', KEYS[4], ARGV[3]) then redis.call('RPUSH', KEYS[3], ARGV[3]) end
redis.call('ZADD', KEYS[4], now + tonumber(ARGV[4]), ARGV[3])
redis.call('PEXPIRE', KEYS[3], ARGV[4])
redis.call('PEXPIRE', KEYS[4], ARGV[4])
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

#undef RLOCK_ANNOUNCE
#undef RLOCK_DROP_DEAD_HEADS

}  // namespace rlock::scripts
