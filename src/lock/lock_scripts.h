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

}  // namespace rlock::scripts
