#include "rlock/redis_lock.h"

#include <string>

#include <fmt/format.h>

#include "lock/lock_scripts.h"
#include "rlock/error.h"

namespace rlock {
namespace {

// Idempotent commands (release, extend, holds) are sent once more when the first answer was lost:
// the connection reconnects, and a restarted Redis answers the second time.
template <typename Command>
auto once_more_if_lost(Command&& command) {
  try {
    return command();
  } catch (const OutcomeUnknown&) {
    return command();
  }
}

}  // namespace

long long redis_uptime_seconds(RedisConnection& redis) { return std::stoll(redis.server_info("uptime_in_seconds")); }

RedisLock::RedisLock(RedisConnection& redis, LockKey key, LockOptions options)
    : redis_(redis),
      key_(std::move(key)),
      options_(options),
      release_(scripts::kRelease),
      release_queued_(scripts::kReleaseQueued),
      extend_(scripts::kExtend),
      acquire_fenced_(scripts::kAcquireFenced),
      holds_(scripts::kHolds),
      announce_(scripts::kAnnounce),
      acquire_queued_(scripts::kAcquireQueued),
      acquire_handoff_(scripts::kAcquireHandoff),
      release_handoff_(scripts::kReleaseHandoff),
      leave_queue_(scripts::kLeaveQueue) {}

template <typename Grant>
Acquisition RedisLock::acquire_with(Token token, Grant&& grant) {
  using Refusal = Acquisition::Refusal;
  if (options_.min_redis_uptime.count() > 0) {
    long long uptime = redis_uptime_seconds(redis_);
    if (std::chrono::seconds(uptime) < options_.min_redis_uptime) {
      return Acquisition{std::nullopt, Refusal::redis_too_young, uptime, 0};
    }
  }
  std::optional<Fence> fence;
  if (!grant(token, fence)) return Acquisition{std::nullopt, Refusal::busy, 0, 0};
  return granted(Lease{std::move(token), fence});
}

Acquisition RedisLock::granted(Lease lease) {
  using Refusal = Acquisition::Refusal;
  if (options_.wait_replicas > 0) {
    long long acked =
        redis_.checked({"WAIT", std::to_string(options_.wait_replicas), std::to_string(options_.wait_timeout.count())})
            .integer();
    if (acked < options_.wait_replicas) {
      release(lease.token);
      return Acquisition{std::nullopt, Refusal::under_replicated, 0, acked};
    }
  }
  return Acquisition{std::move(lease), Refusal::none, 0, 0};
}

Acquisition RedisLock::handed_over(Lease lease) { return granted(std::move(lease)); }

Acquisition RedisLock::acquire(std::chrono::milliseconds ttl) {
  std::string ttl_text = std::to_string(ttl.count());
  return acquire_with(make_token(), [&](const Token& token, std::optional<Fence>&) {
    return !redis_.checked({"SET", key_.lock, token.hex, "NX", "PX", ttl_text}).is_nil();
  });
}

Acquisition RedisLock::acquire_fenced(std::chrono::milliseconds ttl) {
  std::string ttl_text = std::to_string(ttl.count());
  return acquire_with(make_token(), [&](const Token& token, std::optional<Fence>& fence) {
    long long value = acquire_fenced_.run(redis_, {key_.lock, key_.fence_counter}, {token.hex, ttl_text}).integer();
    if (value > 0) fence = Fence{value};
    return value > 0;
  });
}

Acquisition RedisLock::acquire_queued(std::chrono::milliseconds ttl, const QueueTicket& ticket, bool fenced) {
  std::string ttl_text = std::to_string(ttl.count());
  std::string ticket_ttl = std::to_string(ticket.ttl.count());
  return acquire_with(make_token(), [&](const Token& token, std::optional<Fence>& fence) {
    long long value = acquire_queued_
                          .run(redis_, {key_.lock, key_.fence_counter, key_.queue, key_.queue_deadlines},
                               {token.hex, ttl_text, ticket.id, ticket_ttl, fenced ? "1" : "0"})
                          .integer();
    if (fenced && value > 0) fence = Fence{value};
    return value > 0;
  });
}

Acquisition RedisLock::acquire_handoff(std::chrono::milliseconds ttl, const QueueTicket& ticket, const Token& token,
                                       bool fenced) {
  std::string ttl_text = std::to_string(ttl.count());
  std::string ticket_ttl = std::to_string(ticket.ttl.count());
  return acquire_with(token, [&](const Token& own, std::optional<Fence>& fence) {
    long long value =
        acquire_handoff_
            .run(redis_, {key_.lock, key_.fence_counter, key_.queue, key_.queue_deadlines, key_.queue_claims},
                 {own.hex, ttl_text, ticket.id, ticket_ttl, fenced ? "1" : "0"})
            .integer();
    if (fenced && value > 0) fence = Fence{value};
    return value > 0;
  });
}

void RedisLock::leave_queue(const QueueTicket& ticket) noexcept {
  try {
    leave_queue_.run(redis_, {key_.queue, key_.queue_deadlines, key_.queue_claims}, {ticket.id});
  } catch (const std::exception&) {
  }
}

ExtendResult RedisLock::extend(const Token& token, std::chrono::milliseconds ttl) {
  std::string ttl_text = std::to_string(ttl.count());
  Reply reply = once_more_if_lost([&] { return extend_.run(redis_, {key_.lock}, {token.hex, ttl_text}); });
  return ExtendResult{reply.element(0).integer() == 1, reply.element(1).integer()};
}

Ownership RedisLock::holds(const Token& token) {
  Reply reply = once_more_if_lost([&] { return holds_.run(redis_, {key_.lock}, {token.hex}); });
  return Ownership{reply.element(0).integer() == 1, reply.element(1).integer()};
}

ReleaseResult RedisLock::release(const Token& token) noexcept {
  try {
    bool queued = options_.waiters == WaitMode::queue;
    std::vector<std::string_view> keys{key_.lock, key_.queue, key_.queue_deadlines};
    std::vector<std::string_view> announcement{token.hex, key_.released_channel, key_.wake_channel_prefix};
    long long deleted = once_more_if_lost([&] {
      if (options_.waiters == WaitMode::handoff) {
        return release_handoff_
            .run(redis_, {key_.lock, key_.fence_counter, key_.queue, key_.queue_deadlines, key_.queue_claims},
                 announcement)
            .integer();
      }
      if (redis_.server_version() < std::pair{8, 4}) {
        if (queued) return release_queued_.run(redis_, keys, announcement).integer();
        return release_.run(redis_, {key_.lock}, {token.hex, key_.released_channel}).integer();
      }
      long long done = redis_.checked({"DELEX", key_.lock, "IFEQ", token.hex}).integer();
      if (done == 1 && queued) announce_.run(redis_, keys, announcement);
      if (done == 1 && !queued) redis_.checked({"PUBLISH", key_.released_channel, token.hex});
      return done;
    });
    return deleted == 1 ? ReleaseResult::released : ReleaseResult::not_held;
  } catch (const std::exception& e) {
    last_release_error_ = e.what();
    return ReleaseResult::unknown;
  }
}

long long RedisLock::pttl() { return redis_.checked({"PTTL", key_.lock}).integer(); }

}  // namespace rlock
