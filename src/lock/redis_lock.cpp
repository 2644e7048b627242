#include "redis_lock.h"

#include <spdlog/spdlog.h>

namespace rlock {
namespace {

constexpr std::string_view kRelease = R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
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

}  // namespace

RedisLock::RedisLock(RedisConnection& redis, LockKey key)
    : redis_(redis), key_(std::move(key)), release_(kRelease),
      extend_(kExtend),
      acquire_fenced_(kAcquireFenced),
      holds_(kHolds) {}

std::optional<Lease> RedisLock::acquire(std::chrono::milliseconds ttl) {
  Token token = make_token();
  std::string ttl_text = std::to_string(ttl.count());
  Reply reply = redis_.checked({"SET", key_.lock, token.hex, "NX", "PX", ttl_text});
  if (reply.is_nil()) return std::nullopt;
  return Lease{std::move(token), std::nullopt};
}

std::optional<Lease> RedisLock::acquire_fenced(std::chrono::milliseconds ttl) {
  Token token = make_token();
  std::string ttl_text = std::to_string(ttl.count());
  long long fence = acquire_fenced_.run(redis_, {key_.lock, key_.fence_counter}, {token.hex, ttl_text}).integer();
  if (fence == 0) return std::nullopt;
  return Lease{std::move(token), Fence{fence}};
}

ExtendResult RedisLock::extend(const Token& token, std::chrono::milliseconds ttl) {
  std::string ttl_text = std::to_string(ttl.count());
  Reply reply = extend_.run(redis_, {key_.lock}, {token.hex, ttl_text});
  return ExtendResult{reply.element(0).integer() == 1, reply.element(1).integer()};
}

Ownership RedisLock::holds(const Token& token) {
  Reply reply = holds_.run(redis_, {key_.lock}, {token.hex});
  return Ownership{reply.element(0).integer() == 1, reply.element(1).integer()};
}

ReleaseResult RedisLock::release(const Token& token) noexcept {
  try {
    long long deleted = redis_.server_version() >= std::pair{8, 4}
                            ? redis_.checked({"DELEX", key_.lock, "IFEQ", token.hex}).integer()
                            : release_.run(redis_, {key_.lock}, {token.hex}).integer();
    return deleted == 1 ? ReleaseResult::released : ReleaseResult::not_held;
  } catch (const std::exception& e) {
    spdlog::error("release of {} failed: {}", key_.lock, e.what());
    return ReleaseResult::unknown;
  }
}

long long RedisLock::pttl() { return redis_.checked({"PTTL", key_.lock}).integer(); }

}  // namespace rlock
