#include "strategy/one_lock.h"

#include <fmt/format.h>

#include "lab/worker_plan.h"

namespace rlock::strategy {
namespace {

// The lock's options, its release serving waiters that wait as the policy does.
LockOptions options_of(const Setting& setting) {
  LockOptions options = setting.lock_options;
  options.waiters = setting.policy.wait;
  return options;
}

}  // namespace

OneLock::OneLock(const Setting& setting, Parts parts, bool fenced)
    : setting_(setting),
      parts_(parts),
      redis_(setting.redis),
      lock_(redis_, setting.key, options_of(setting)),
      fenced_(fenced),
      acquirer_(lock_, setting.redis, setting.policy,
                AcquireObserver{[this](const Acquisition& refusal) { refused(refusal); },
                                [this](const Error& e) {
                                  parts_.journal.record(lab::EventKind::acquire_unanswered, {{"message", e.what()}});
                                }}) {}

void OneLock::add(long long amount) {
  bool first = true;
  for (int restarts = 0; !attempt(amount, first);) {
    first = false;
    parts_.steps.restarting(++restarts);
  }
}

// One pass from acquisition to release; false when it must start again.
bool OneLock::attempt(long long amount, bool first) {
  Lease lease = parts_.steps.acquire(*this);
  parts_.journal.record(lab::EventKind::acquired,
                        lease.fence ? nlohmann::json{{"ttl_ms", setting_.ttl.count()}, {"fence", lease.fence->value}}
                                    : nlohmann::json{{"ttl_ms", setting_.ttl.count()}});
  hold(lease);
  if (lease.fence) parts_.steps.before(lab::Step::fence);

  Pass pass = read_modify_write(lease, amount, first);
  if (pass == Pass::lock_lost) return false;  // nothing to release: the lock is someone else's or nobody's
  if (first) pause_for(setting_.hold_seconds);

  let_go();
  parts_.steps.watchdog_stopped();
  parts_.steps.before(lab::Step::release);
  ReleaseResult released = lock_.release(lease.token);
  parts_.journal.record(lab::EventKind::released, {{"result", released == ReleaseResult::released   ? 1
                                                              : released == ReleaseResult::not_held ? 0
                                                                                                    : -1}});
  if (released == ReleaseResult::unknown) {
    throw Error(fmt::format("the release of {} got no answer ({}); the lock expires with its TTL", lock_.key().lock,
                            lock_.last_release_error()));
  }
  if (pass == Pass::written) return true;
  if (retries_rejected()) {
    parts_.journal.record(lab::EventKind::rejected_retry);
    return false;
  }
  throw lab::WriteRejected(
      fmt::format("worker {}: the fenced write was rejected (fencing token {} is stale); {} was not added",
                  setting_.name, lease.fence->value, amount));
}

OneLock::Pass OneLock::read_modify_write(const Lease& lease, long long amount, bool first) {
  std::optional<long long> balance = read(lease);
  if (!balance) return Pass::rejected;
  if (!check(lease)) return Pass::lock_lost;
  // After the check: a fault that strikes at the marker falls between the check and the write.
  parts_.journal.mark_read();
  if (first) pause_for(setting_.work_seconds);
  parts_.steps.before(lab::Step::write);
  double sent_at = parts_.journal.elapsed();  // a checker's section ends when the write left, not when confirmed
  return write(lease, *balance, amount, sent_at) ? Pass::written : Pass::rejected;
}

std::optional<long long> OneLock::read(const Lease&) {
  parts_.steps.before(lab::Step::read);
  long long balance = parts_.account.read();
  parts_.journal.record(lab::EventKind::read, {{"balance", balance}});
  return balance;
}

bool OneLock::write(const Lease&, long long before, long long amount, double sent_at) {
  long long after = before + amount;
  written([&] { parts_.account.write(after); });
  state_.added = true;
  parts_.journal.record(lab::EventKind::wrote,
                        {{"before", before}, {"amount", amount}, {"after", after}, {"sent_at", sent_at}});
  return true;
}

Lease OneLock::by_policy() {
  Acquisition acquired = fenced_ ? acquirer_.acquire_fenced(setting_.ttl) : acquirer_.acquire(setting_.ttl);
  if (!acquired) {
    throw Error(fmt::format("could not acquire {} in {} ms", lock_.key().lock,
                            setting_.policy.deadline.value_or(std::chrono::milliseconds{0}).count()));
  }
  return *acquired.lease;
}

std::optional<Acquisition> OneLock::once() {
  try {
    return fenced_ ? lock_.acquire_fenced(setting_.ttl) : lock_.acquire(setting_.ttl);
  } catch (const Error& e) {
    parts_.journal.record(lab::EventKind::acquire_unanswered, {{"message", e.what()}});
    return std::nullopt;
  }
}

void OneLock::refused(const Acquisition& refusal) {
  using Refusal = Acquisition::Refusal;
  double retry_s = std::chrono::duration<double>(setting_.policy.retry).count();
  switch (refusal.refusal) {
    case Refusal::redis_too_young:
      parts_.journal.record(lab::EventKind::redis_too_young,
                            {{"uptime_s", refusal.redis_uptime_s},
                             {"min_ms", setting_.lock_options.min_redis_uptime.count()},
                             {"retry_s", retry_s}});
      return;
    case Refusal::under_replicated:
      parts_.journal.record(
          lab::EventKind::under_replicated,
          {{"acked", refusal.replicas_acked}, {"wanted", setting_.lock_options.wait_replicas}, {"retry_s", retry_s}});
      return;
    default: parts_.journal.record(lab::EventKind::busy, {{"retry_s", retry_s}});
  }
}

}  // namespace rlock::strategy
