#include "lock/lock_scripts.h"

namespace rlock::scripts {

// Drops the queue's heads whose ticket deadline passed (a waiter that died or stopped asking), running FORGET (Lua)
// for each; leaves `head` the live head or false, and `now` the server's time in ms.
#define RLOCK_DROP_DEAD_HEADS(QUEUE, DEADLINES, FORGET)                                       \
  "local t = redis.call('TIME')\n"                                                            \
  "local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)\n"                   \
  "local head = redis.call('LINDEX', " QUEUE                                                  \
  ", 0)\n"                                                                                    \
  "while head do\n"                                                                           \
  "  local deadline = redis.call('ZSCORE', " DEADLINES                                        \
  ", head)\n"                                                                                 \
  "  if deadline and tonumber(deadline) >= now then break end\n"                              \
  "  redis.call('LPOP', " QUEUE                                                               \
  ")\n"                                                                                       \
  "  redis.call('ZREM', " DEADLINES ", head)\n" FORGET "  head = redis.call('LINDEX', " QUEUE \
  ", 0)\n"                                                                                    \
  "end\n"

// The release's announcements: the token to the notified waiters, a wake-up to the queue's head.
#define RLOCK_ANNOUNCE                                               \
  "redis.call('PUBLISH', ARGV[2], ARGV[1])\n" RLOCK_DROP_DEAD_HEADS( \
      "KEYS[2]", "KEYS[3]", "") "if head then redis.call('PUBLISH', ARGV[3] .. head, head) end\n"

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

// The queued acquisition: only the queue's head, or anyone when nobody waits, may SET NX PX (the head then leaves
// the queue, running LEAVE); refused, the ticket is queued once, its deadline moves on, CLAIM runs, and the queue's
// keys (QUEUE_KEYS, a Lua list) live as long as the last deadline.
#define RLOCK_GRANT_HEAD_OR_QUEUE(LEAVE, CLAIM, QUEUE_KEYS)                                                  \
  "if (not head or head == ARGV[3]) and redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then\n"     \
  "  if head then\n"                                                                                         \
  "    redis.call('LPOP', KEYS[3])\n"                                                                        \
  "    redis.call('ZREM', KEYS[4], ARGV[3])\n" LEAVE                                                         \
  "  end\n"                                                                                                  \
  "  if ARGV[5] == '1' then return redis.call('INCR', KEYS[2]) end\n"                                        \
  "  return 1\n"                                                                                             \
  "end\n"                                                                                                    \
  "if not redis.call('ZSCORE', KEYS[4], ARGV[3]) then redis.call('RPUSH', KEYS[3], ARGV[3]) end\n"           \
  "redis.call('ZADD', KEYS[4], now + tonumber(ARGV[4]), ARGV[3])\n" CLAIM "for _, key in ipairs(" QUEUE_KEYS \
  ") do redis.call('PEXPIRE', key, ARGV[4]) end\n"                                                           \
  "return 0\n"

constexpr std::string_view kAcquireQueued =
    RLOCK_DROP_DEAD_HEADS("KEYS[3]", "KEYS[4]", "") RLOCK_GRANT_HEAD_OR_QUEUE("", "", "{KEYS[3], KEYS[4]}");

#define RLOCK_FORGET_CLAIM "  redis.call('HDEL', KEYS[5], head)\n"

// A waiter asks again with the token it keeps for its whole wait: holding it, the lock was handed over to it.
constexpr std::string_view kAcquireHandoff =
    "if redis.call('GET', KEYS[1]) == ARGV[1] then\n"
    "  if ARGV[5] == '1' then return tonumber(redis.call('GET', KEYS[2])) end\n"
    "  return 1\n"
    "end\n" RLOCK_DROP_DEAD_HEADS("KEYS[3]", "KEYS[4]", RLOCK_FORGET_CLAIM)
        RLOCK_GRANT_HEAD_OR_QUEUE("    redis.call('HDEL', KEYS[5], ARGV[3])\n",
                                  "redis.call('HSET', KEYS[5], ARGV[3], ARGV[1] .. ' ' .. ARGV[2] .. ' ' .. ARGV[5])\n",
                                  "{KEYS[3], KEYS[4], KEYS[5]}");

// The lock goes to the live head's claim without ever being free; a live head without a claim (a waiter of
// WaitMode::queue) is woken to ask, as by kReleaseQueued.
constexpr std::string_view kReleaseHandoff =
    "if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end\n" RLOCK_DROP_DEAD_HEADS("KEYS[3]", "KEYS[4]",
                                                                                         RLOCK_FORGET_CLAIM) R"lua(
local claim = head and redis.call('HGET', KEYS[5], head)
if claim then
  local token, ttl, fenced = string.match(claim, '^(%S+) (%d+) (%d)$')
  redis.call('LPOP', KEYS[3])
  redis.call('ZREM', KEYS[4], head)
  redis.call('HDEL', KEYS[5], head)
  redis.call('SET', KEYS[1], token, 'PX', ttl)
  local fence = 0
  if fenced == '1' then fence = redis.call('INCR', KEYS[2]) end
  redis.call('PUBLISH', ARGV[3] .. head, token .. ' ' .. fence)
  return 1
end
redis.call('DEL', KEYS[1])
redis.call('PUBLISH', ARGV[2], ARGV[1])
if head then redis.call('PUBLISH', ARGV[3] .. head, head) end
return 1
)lua";

constexpr std::string_view kLeaveQueue = R"lua(
redis.call('LREM', KEYS[1], 0, ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return 1
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

#undef RLOCK_FORGET_CLAIM
#undef RLOCK_GRANT_HEAD_OR_QUEUE
#undef RLOCK_ANNOUNCE
#undef RLOCK_DROP_DEAD_HEADS

}  // namespace rlock::scripts
