// A lock on one Redis server, on one LockKey: SET NX PX to acquire, token-checked scripts to extend
// and release.
//
// The scripts (RELEASE, EXTEND, ACQUIRE_FENCED, HOLDS) live here, run by SHA through LuaScript. The lock
// borrows the connection, which must outlive it. Not thread-safe: a watchdog uses its own
// connection and its own RedisLock.
#pragma once

#include <chrono>
#include <optional>

#include "lock_key.h"
#include "lua_script.h"
#include "redis_connection.h"
#include "token.h"

namespace rlock {

// What an acquisition hands back: the token proving ownership, and a fence when it was fenced.
struct Lease {
  Token token;
  std::optional<Fence> fence;
};

struct ExtendResult {
  bool extended = false;
  long long pttl_ms = 0;  // the key's PTTL right after: -2 when the key is gone
};

struct Ownership {
  bool held = false;      // the key still holds this token
  long long pttl_ms = 0;  // the key's PTTL: -2 when the key is gone
};

enum class ReleaseResult { released, not_held, unknown };

class RedisLock {
 public:
  RedisLock(RedisConnection& redis, LockKey key);

  // SET key token NX PX ttl. Empty when somebody else holds the lock.
  std::optional<Lease> acquire(std::chrono::milliseconds ttl);
  // ACQUIRE_FENCED: SET NX PX and, only when that succeeded, INCR of the fence counter, in one
  // script so lock order and fence order cannot disagree.
  std::optional<Lease> acquire_fenced(std::chrono::milliseconds ttl);
  // EXTEND: PEXPIRE only while the key still holds this token; reports the PTTL right after.
  ExtendResult extend(const Token& token, std::chrono::milliseconds ttl);
  // HOLDS: whether the key still holds this token, and its PTTL, in one round trip. The answer is
  // already old when it arrives: a check before a write does not make the write safe.
  Ownership holds(const Token& token);
  // RELEASE: DEL only while the key still holds this token (DELEX IFEQ on Redis 8.4 and newer).
  // Never throws: a failure is logged to stderr and reported as unknown.
  ReleaseResult release(const Token& token) noexcept;
  // The lock key's PTTL: -2 when there is no lock.
  long long pttl();

  const LockKey& key() const { return key_; }

 private:
  RedisConnection& redis_;
  LockKey key_;
  LuaScript release_;
  LuaScript extend_;
  LuaScript acquire_fenced_;
  LuaScript holds_;
};

}  // namespace rlock
