// Redlock, antirez's algorithm: one lock over N independent Redis servers (no replication between
// them). acquire() sends SET NX PX with one token to each server in turn, with short timeouts; the
// lock is held when a majority granted it and time is left,
//   validity = ttl - elapsed - drift,  drift = ttl / 100 + 2 ms,
// and is released on every server otherwise. A server that is down counts as a refusal.
//
// There is no fencing token: a holder paused past its validity cannot know, which is Kleppmann's
// objection, and what `rlock chaos --strategies redlock` measures. Owns one connection per server,
// made again on the next acquisition after a failure. Not thread-safe.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rlock/acquire.h"
#include "rlock/lock_key.h"
#include "rlock/redis_address.h"
#include "rlock/redis_connection.h"
#include "rlock/redis_lock.h"
#include "rlock/token.h"

namespace rlock {

// One acquisition: the token when the lock is held, and what the servers said.
struct RedlockAttempt {
  std::optional<Token> token;
  int granted = 0;                        // servers that answered SET NX with OK
  int answered = 0;                       // servers that answered at all (OK, or nil when held)
  std::vector<std::string> errors;        // why the others did not (each names its server)
  std::chrono::milliseconds validity{0};  // how long the lock can be trusted from the attempt's end

  explicit operator bool() const { return token.has_value(); }
};

class Redlock {
 public:
  // Throws UsageError for fewer than 3 servers: with 1 or 2, a majority is all of them.
  Redlock(const std::vector<RedisAddress>& servers, LockKey key,
          RedisTimeouts timeouts = {std::chrono::milliseconds(50), std::chrono::milliseconds(50)});
  ~Redlock();
  Redlock(const Redlock&) = delete;
  Redlock& operator=(const Redlock&) = delete;

  RedlockAttempt acquire(std::chrono::milliseconds ttl);
  // RELEASE (token-checked) on every server. Never throws; returns how many released it.
  int release(const Token& token) noexcept;

  int servers() const { return static_cast<int>(members_.size()); }
  int quorum() const { return servers() / 2 + 1; }
  const LockKey& key() const { return key_; }

 private:
  struct Member {
    RedisAddress address;
    std::unique_ptr<RedisConnection> connection;
    std::unique_ptr<RedisLock> lock;
  };
  // The member's lock, connecting first when needed; nullptr when the server cannot be reached,
  // and `error` then says why.
  RedisLock* lock_on(Member& member, std::string* error = nullptr);

  std::vector<Member> members_;
  LockKey key_;
  RedisTimeouts timeouts_;
};

// The acquisition policy (acquire.h) for Redlock: asks again after a random delay while the lock is
// refused, as antirez's algorithm asks, so that clients refused together do not ask together again
// and split the votes anew: uniform in [retry/2, 3 retry/2], drawn from getrandom each time
// (policy.wait is not used: there is no one server whose announcement to wait for). The
// servers count as unanswering while fewer than a quorum answer. `refused` hears the first attempt
// that was not granted. Borrows the Redlock, which must outlive it. Not thread-safe.
class RedlockAcquirer {
 public:
  using Refused = std::function<void(const RedlockAttempt& refused)>;

  RedlockAcquirer(Redlock& lock, AcquirePolicy policy = {}, Refused refused = {});

  // A granted attempt; or, when the deadline came first, the last refused one. Throws Error naming
  // the servers that did not answer when fewer than a quorum answered for unanswered_limit.
  RedlockAttempt acquire(std::chrono::milliseconds ttl);
  // The next wait before asking again (a new draw each call).
  std::chrono::microseconds retry_delay() const;

 private:
  Redlock& lock_;
  AcquirePolicy policy_;
  Refused refused_;
};

}  // namespace rlock
