// watchdog: the lease is extended every TTL/3 while it is held, from a thread of its own
// (rlock/watchdog.h) on its own connection; a step hook that keeps the lease itself (the
// explorer's gate) is given the one extension to call instead.
#include <optional>

#include "rlock/watchdog.h"
#include "strategy/one_lock.h"
#include "strategy/strategies.h"

namespace rlock::strategy {
namespace {

class WatchdogStrategy final : public OneLock {
 public:
  WatchdogStrategy(const Setting& setting, Parts parts) : OneLock(setting, parts, false) {}

  void reconnect() override {
    OneLock::reconnect();
    if (own_redis_) own_redis_->reconnect();
  }

 private:
  void hold(const Lease& lease) override {
    held_ = lease.token;
    if (parts_.steps.granted(held_, [this] { return extend_once(); })) return;
    watchdog_.emplace(setting_.redis, lock_.key(), lease.token, setting_.ttl,
                      [this](const WatchdogReport& report) { record(report); });
  }

  void let_go() override {
    if (!watchdog_) return;
    watchdog_->stop();
    // The callback is this strategy's journal: when it threw, the watchdog stopped extending.
    if (std::optional<std::string> failure = watchdog_->failure()) {
      parts_.journal.record(lab::EventKind::watchdog_failed, {{"error", *failure}});
    }
    watchdog_.reset();
  }

  // The extension as Watchdog's thread makes it and reports it, on a connection of the watchdog's.
  bool extend_once() {
    try {
      if (!own_lock_) {
        own_redis_.emplace(setting_.redis);
        own_lock_.emplace(*own_redis_, lock_.key());
      }
      ExtendResult result = own_lock_->extend(held_, setting_.ttl);
      record(WatchdogReport{result, std::nullopt});
      return result.extended;
    } catch (const Error& e) {
      record(WatchdogReport{{}, e.what()});
      return false;
    }
  }

  void record(const WatchdogReport& report) const {
    if (report.result.extended) {
      parts_.journal.record(lab::EventKind::watchdog_extended, {{"pttl", report.result.pttl_ms}});
    } else if (report.error) {
      parts_.journal.record(lab::EventKind::watchdog_failed, {{"error", *report.error}});
    } else {
      parts_.journal.record(lab::EventKind::watchdog_failed, {{"pttl", report.result.pttl_ms}});
    }
  }

  Token held_;
  std::optional<Watchdog> watchdog_;
  // Kept by the hook: the watchdog's own connection and lock, opened at the first extension.
  std::optional<RedisConnection> own_redis_;
  std::optional<RedisLock> own_lock_;
};

}  // namespace

std::unique_ptr<Incrementer> make_watchdog(const Setting& setting, Parts parts) {
  return std::make_unique<WatchdogStrategy>(setting, parts);
}

}  // namespace rlock::strategy
