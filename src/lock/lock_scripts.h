// The Lua scripts of RedisLock, each one a whole lock operation that Redis runs atomically.
//
// Every script reads or writes only the keys it is given (Redis Cluster safe). Run through
// LuaScript (lua_script.h), which sends the body once and then only its SHA.
//   kRelease       KEYS[1] lock, ARGV[1] token, ARGV[2] released channel. DEL and PUBLISH of the
//                  token on the channel only while the lock holds the token. Replies 1 (released)
//                  or 0 (not held).
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
extern const std::string_view kExtend;
extern const std::string_view kAcquireFenced;
extern const std::string_view kHolds;

}  // namespace rlock::scripts
