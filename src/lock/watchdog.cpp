#include "rlock/watchdog.h"

#include <algorithm>
#include <exception>
#include <string>

namespace rlock {

Watchdog::Watchdog(const RedisAddress& address, LockKey key, Token token, std::chrono::milliseconds ttl,
                   Callback report)
    : redis_(address),
      lock_(redis_, std::move(key)),
      token_(std::move(token)),
      ttl_(ttl),
      report_(std::move(report)),
      thread_([this] { run(); }) {}

Watchdog::~Watchdog() { stop(); }

void Watchdog::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::optional<std::string> Watchdog::failure() const {
  std::lock_guard lock(mutex_);
  return failure_;
}

bool Watchdog::deliver(const WatchdogReport& report) {
  std::string thrown;
  try {
    report_(report);
    return true;
  } catch (const std::exception& e) {
    thrown = e.what();
  } catch (...) {
    thrown = "an exception that is not a std::exception";
  }
  std::lock_guard lock(mutex_);
  failure_ = "the watchdog's callback threw: " + thrown;
  return false;
}

void Watchdog::run() {
  const auto period = std::max(ttl_ / 3, std::chrono::milliseconds(1));
  auto next = std::chrono::steady_clock::now() + period;
  std::unique_lock lock(mutex_);
  for (;;) {
    bool stopping = wake_.wait_until(lock, next, [this] { return stopping_; });
    // A tick that fell due while the process was frozen (SIGSTOP, a long GC pause) still runs when
    // stop() comes first: both threads woke at once, and the watchdog reports what it finds.
    if (stopping && std::chrono::steady_clock::now() < next) return;
    lock.unlock();
    WatchdogReport report;
    try {
      report.result = lock_.extend(token_, ttl_);
    } catch (const std::exception& e) {
      report.error = e.what();
    }
    if (!deliver(report) || !report.result.extended || stopping) return;
    next = std::chrono::steady_clock::now() + period;
    lock.lock();
  }
}

}  // namespace rlock
