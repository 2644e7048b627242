#include "rlock/patterns/redlock.h"

#include <algorithm>
#include <string>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lock/patience.h"
#include "lock/random_bytes.h"
#include "rlock/error.h"

namespace rlock {

Redlock::Redlock(const std::vector<RedisAddress>& servers, LockKey key, RedisTimeouts timeouts)
    : key_(std::move(key)), timeouts_(timeouts) {
  if (servers.size() < 3) {
    throw UsageError(fmt::format("Redlock needs at least 3 independent Redis servers, got {}", servers.size()));
  }
  for (const RedisAddress& address : servers) members_.push_back(Member{address, nullptr, nullptr});
}

Redlock::~Redlock() = default;

RedisLock* Redlock::lock_on(Member& member, std::string* error) {
  if (member.lock) return member.lock.get();
  try {
    member.connection = std::make_unique<RedisConnection>(member.address, timeouts_);
    member.lock = std::make_unique<RedisLock>(*member.connection, key_);
  } catch (const Error& e) {
    member.connection.reset();
    if (error != nullptr) *error = e.what();
  }
  return member.lock.get();
}

RedlockAttempt Redlock::acquire(std::chrono::milliseconds ttl) {
  using Clock = std::chrono::steady_clock;
  Token token = make_token();
  std::string px = std::to_string(ttl.count());
  RedlockAttempt attempt;
  auto began = Clock::now();
  for (Member& member : members_) {
    std::string error;
    if (lock_on(member, &error) == nullptr) {
      attempt.errors.push_back(error);
      continue;
    }
    try {
      Reply reply = member.connection->command({"SET", key_.lock, token.hex, "NX", "PX", px});
      ++attempt.answered;
      if (!reply.is_error() && !reply.is_nil()) ++attempt.granted;
    } catch (const Error& e) {
      attempt.errors.push_back(e.what());  // not granted; the next command connects again
    }
  }
  auto drift = ttl / 100 + std::chrono::milliseconds(2);
  attempt.validity = ttl - std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - began) - drift;
  if (attempt.granted >= quorum() && attempt.validity.count() > 0) {
    attempt.token = token;
  } else {
    release(token);  // also where the answer was lost: the SET may have been applied
  }
  return attempt;
}

int Redlock::release(const Token& token) noexcept {
  int released = 0;
  for (Member& member : members_) {
    RedisLock* lock = lock_on(member);
    if (lock != nullptr && lock->release(token) == ReleaseResult::released) ++released;
  }
  return released;
}

RedlockAcquirer::RedlockAcquirer(Redlock& lock, AcquirePolicy policy, Refused refused)
    : lock_(lock), policy_(policy), refused_(std::move(refused)) {}

RedlockAttempt RedlockAcquirer::acquire(std::chrono::milliseconds ttl) {
  Patience patience(policy_);
  bool said = false;
  for (;;) {
    RedlockAttempt attempt = lock_.acquire(ttl);
    if (attempt) return attempt;
    if (attempt.answered >= lock_.quorum()) {
      patience.answered();
    } else if (patience.unanswered()) {
      throw Error(fmt::format("Redlock: only {} of {} servers answered for {} s ({})", attempt.answered,
                              lock_.servers(), std::chrono::duration<double>(policy_.unanswered_limit).count(),
                              fmt::join(attempt.errors, "; ")));
    }
    if (!said && refused_) refused_(attempt);
    said = true;
    if (patience.past_deadline()) return attempt;
    std::this_thread::sleep_until(std::min(Patience::Clock::now() + retry_delay(), patience.deadline()));
  }
}

std::chrono::microseconds RedlockAcquirer::retry_delay() const {
  auto span = static_cast<std::uint64_t>(std::chrono::microseconds(policy_.retry).count());
  auto offset = span == 0 ? 0 : random_u64() % (span + 1);  // the bias of % is below 2^-40 here
  return std::chrono::microseconds(policy_.retry) / 2 + std::chrono::microseconds(offset);
}

}  // namespace rlock
