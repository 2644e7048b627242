// A lock on one Redis server, on one LockKey: SET NX PX to acquire, token-checked scripts to extend
// and release.
//
// The scripts (RELEASE, EXTEND, ACQUIRE_FENCED, HOLDS) live in src/lock/lock_scripts.cpp, run by
// SHA through LuaScript.
// Two opt-in safeguards (LockOptions) refuse an acquisition that the server could lose: a Redis
// that restarted too recently, and a lock that too few replicas acknowledged. The lock borrows the
// connection, which must outlive it. Not thread-safe: a watchdog uses its own connection and lock.
#pragma once

#include <chrono>
#include <optional>

#include "rlock/lock_key.h"
#include "rlock/lua_script.h"
#include "rlock/redis_connection.h"
#include "rlock/token.h"

namespace rlock {

// How a client that was refused a busy lock waits before it asks again (release_waiter.h), and so what the lock's
// release must do for it.
enum class WaitMode { poll, notify, queue, handoff };

struct LockOptions {
  // Grant no lock until Redis has been up this long (0: off). A Redis without persistence forgets
  // every lock when it restarts; waiting a little more than the longest TTL after its start lets
  // every lock granted before the restart expire first. Read from INFO server before each acquisition.
  std::chrono::milliseconds min_redis_uptime{0};
  // After acquiring, WAIT until this many replicas acknowledged (0: off); when fewer did within
  // wait_timeout, release and report the lock as not acquired.
  int wait_replicas = 0;
  std::chrono::milliseconds wait_timeout{100};
  // How this lock's waiters wait, which decides what the release does besides the DEL: poll and notify, the
  // PUBLISH of the released token only; queue, a wake-up to the queue's live head too, for which it reads the
  // server's clock and walks the queue; handoff, no DEL but the lock given to the queue's live head (HANDOFF_RELEASE).
  // A lock whose waiters do not queue pays nothing for the queue.
  WaitMode waiters = WaitMode::poll;
};

// What an acquisition hands back: the token proving ownership, and a fence when it was fenced.
struct Lease {
  Token token;
  std::optional<Fence> fence;
};

// An acquisition's outcome: a lease, or why there is none.
struct Acquisition {
  enum class Refusal { none, busy, redis_too_young, under_replicated };

  std::optional<Lease> lease;
  Refusal refusal = Refusal::none;
  long long redis_uptime_s = 0;  // redis_too_young: the server's uptime
  long long replicas_acked = 0;  // under_replicated: how many replicas acknowledged

  explicit operator bool() const { return lease.has_value(); }
  const Lease* operator->() const { return &*lease; }
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

// A waiter's place in the lock's queue (WaitMode::queue and handoff): its ticket, and how long the queue keeps
// it without hearing from the waiter again before skipping it as dead.
struct QueueTicket {
  std::string id;
  std::chrono::milliseconds ttl{500};
};

class RedisLock {
 public:
  RedisLock(RedisConnection& redis, LockKey key, LockOptions options = {});

  // SET key token NX PX ttl.
  Acquisition acquire(std::chrono::milliseconds ttl);
  // ACQUIRE_FENCED: SET NX PX and, only when that succeeded, INCR of the fence counter, in one
  // script so lock order and fence order cannot disagree.
  Acquisition acquire_fenced(std::chrono::milliseconds ttl);
  // ACQUIRE_QUEUED: the fair acquisition (lock_key.h's queue). Granted only when nobody waits or
  // this ticket heads the queue (it then leaves the queue); refused, the ticket is queued (once)
  // and its deadline moved to now + ticket.ttl. Heads whose deadline passed are skipped. With
  // `fenced`, the lease carries a fence as with acquire_fenced.
  Acquisition acquire_queued(std::chrono::milliseconds ttl, const QueueTicket& ticket, bool fenced);
  // ACQUIRE_HANDOFF (WaitMode::handoff): acquire_queued with the token the caller keeps for its whole wait. Refused,
  // the waiter's claim (this token, the TTL, whether fenced) stays with its ticket, for a release to hand the lock
  // over to it. Granted too when the lock already holds `token`: handed over since the last attempt, the fence is
  // then the counter's value, which nobody can move while the lock is held.
  Acquisition acquire_handoff(std::chrono::milliseconds ttl, const QueueTicket& ticket, const Token& token,
                              bool fenced);
  // A lease a release handed over (its waiter was told so): WAIT for replicas, as after any grant.
  Acquisition handed_over(Lease lease);
  // LEAVE_QUEUE: the ticket and its claim out of the queue, for a waiter that gives up. Never throws: a ticket left
  // behind is skipped after its TTL.
  void leave_queue(const QueueTicket& ticket) noexcept;
  // EXTEND: PEXPIRE only while the key still holds this token; reports the PTTL right after.
  ExtendResult extend(const Token& token, std::chrono::milliseconds ttl);
  // HOLDS: whether the key still holds this token, and its PTTL, in one round trip. The answer is
  // already old when it arrives: a check before a write does not make the write safe.
  Ownership holds(const Token& token);
  // RELEASE: DEL only while the key still holds this token (DELEX IFEQ on Redis 8.4 and newer),
  // then PUBLISH of the token on the key's released_channel (in the script; after DELEX, one more
  // command) and, when the waiters queue, a wake-up to the queue's live head (RELEASE_QUEUED; after
  // DELEX, the ANNOUNCE script). When they wait for a hand-off, RELEASE_HANDOFF instead, on every version: the
  // lock goes to the queue's live head, only told on its own channel, or, when nobody waits, is deleted and
  // announced. Never throws: a failure is reported as unknown, and
  // last_release_error() says why.
  ReleaseResult release(const Token& token) noexcept;
  const std::string& last_release_error() const { return last_release_error_; }
  // The lock key's PTTL: -2 when there is no lock.
  long long pttl();

  const LockKey& key() const { return key_; }

 private:
  template <typename Grant>
  Acquisition acquire_with(Token token, Grant&& grant);
  // The restart guard comes before a grant; WAIT for replicas after it, and releases when too few acknowledged.
  Acquisition granted(Lease lease);

  RedisConnection& redis_;
  LockKey key_;
  LockOptions options_;
  LuaScript release_;
  LuaScript release_queued_;
  LuaScript extend_;
  LuaScript acquire_fenced_;
  LuaScript holds_;
  LuaScript announce_;
  LuaScript acquire_queued_;
  LuaScript acquire_handoff_;
  LuaScript release_handoff_;
  LuaScript leave_queue_;
  std::string last_release_error_;
};

// The server's uptime in seconds, from INFO server.
long long redis_uptime_seconds(RedisConnection& redis);

}  // namespace rlock
