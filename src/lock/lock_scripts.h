// The Lua scripts of RedisLock, each one a whole lock operation that Redis runs atomically.
//
// Every script reads or writes only the keys it is given (Redis Cluster safe). Run through
// LuaScript (lua_script.h), which sends the body once and then only its SHA.
//   kRelease       KEYS[1] lock, ARGV[1] token, ARGV[2] released channel. Only while the lock holds
//                  the token: DEL, then PUBLISH of the token. Replies 1 (released) or 0 (not held).
//   kReleaseQueued KEYS[1] lock, KEYS[2] queue, KEYS[3] queue deadlines, ARGV[1] token, ARGV[2]
//                  released channel, ARGV[3] wake channel prefix. Only while the lock holds the
//                  token: DEL, then kAnnounce's work. Replies 1 (released) or 0 (not held).
//   kAnnounce      The keys and arguments of kReleaseQueued, after a DELEX IFEQ that released: PUBLISH
//                  of the token on the released channel; the queue's dead heads (deadline passed)
//                  dropped; PUBLISH to the live head's wake channel. Replies 1.
//   kAcquireQueued KEYS[1] lock, KEYS[2] fence counter, KEYS[3] queue, KEYS[4] deadlines, ARGV[1]
//                  token, ARGV[2] TTL in ms, ARGV[3] ticket, ARGV[4] ticket TTL in ms, ARGV[5] "1"
//                  for a fence. Drops dead heads; SET NX PX only when the queue is empty or
//                  headed by this ticket (which then leaves it), INCR of the counter when fenced.
//                  Refused, queues the ticket (once) and moves its deadline to now + ticket TTL.
//                  Replies the fence, or 1 when not fenced, or 0 when refused.
//   kAcquireHandoff KEYS[1] lock, KEYS[2] fence counter, KEYS[3] queue, KEYS[4] deadlines, KEYS[5] claims,
//                  ARGV as kAcquireQueued's. Granted at once when the lock holds the token (handed over since
//                  the last attempt: replies the counter's value when fenced, else 1). Otherwise kAcquireQueued's
//                  work, dead heads' claims dropped with them; refused, also sets the ticket's claim to
//                  "TOKEN TTL FENCED" (ARGV[1], ARGV[2], ARGV[5]). Replies as kAcquireQueued.
//   kReleaseHandoff KEYS as kAcquireHandoff's, ARGV as kReleaseQueued's. Only while the lock holds the token:
//                  pops the queue's heads until a live one with a claim; to it, SET of the lock to the claim's
//                  token with the claim's TTL, INCR of the counter when the claim is fenced, and PUBLISH of
//                  "TOKEN FENCE" (0 when not fenced) on its wake channel, and to nobody else. When there is none,
//                  DEL and PUBLISH of the token on the released channel. Replies 1 (released) or 0 (not held).
//   kLeaveQueue    KEYS[1] queue, KEYS[2] deadlines, KEYS[3] claims, ARGV[1] ticket. Removes the ticket and its
//                  claim. Replies 1.
//   kExtend        KEYS[1] lock, ARGV[1] token, ARGV[2] TTL in ms. PEXPIRE only while the lock holds
//                  the token. Replies {1 if extended else 0, the lock's PTTL afterwards}.
//   kAcquireFenced KEYS[1] lock, KEYS[2] fence counter, ARGV[1] token, ARGV[2] TTL in ms. SET NX PX,
//                  then INCR of the counter only when the SET succeeded. Replies the new fence, or 0
//                  when the lock is busy (fences start at 1).
//   kHolds         KEYS[1] lock, ARGV[1] token. Replies {1 if the lock holds the token else 0, PTTL}.
// Internal to the lock library: constants, thread-safe.
#pragma once

#include <string_view>

namespace rlock::scripts {

extern const std::string_view kRelease;
extern const std::string_view kReleaseQueued;
extern const std::string_view kExtend;
extern const std::string_view kAcquireFenced;
extern const std::string_view kHolds;
extern const std::string_view kAnnounce;
extern const std::string_view kAcquireQueued;
extern const std::string_view kAcquireHandoff;
extern const std::string_view kReleaseHandoff;
extern const std::string_view kLeaveQueue;

}  // namespace rlock::scripts
