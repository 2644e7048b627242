// A watchdog: a thread that keeps a held lock alive by extending it every ttl/3.
//
// It opens its own Redis connection (hiredis contexts are not thread-safe), reports every
// extension through the callback, and stops on the first failure (the lock was lost or Redis did
// not answer). The destructor stops and joins the thread. The callback runs on the watchdog's
// thread and must be thread-safe. An exception thrown by the callback is caught on that thread: the
// watchdog stops extending (the lock then expires with its TTL) and failure() says what was thrown;
// being a library, it logs nothing itself. failure() may be called from any thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "rlock/redis_address.h"
#include "rlock/redis_lock.h"

namespace rlock {

struct WatchdogReport {
  ExtendResult result;
  std::optional<std::string> error;  // set when Redis failed rather than refused the extension
};

class Watchdog {
 public:
  using Callback = std::function<void(const WatchdogReport&)>;

  // Throws Error when its connection cannot be opened; no thread is started then.
  Watchdog(const RedisAddress& address, LockKey key, Token token, std::chrono::milliseconds ttl, Callback report);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // Stops extending and joins the thread; an extension that is already overdue runs first.
  // Idempotent.
  void stop();

  // What the callback threw, when it threw: the watchdog stopped then. Empty otherwise.
  std::optional<std::string> failure() const;

 private:
  void run();
  // Calls the callback with `report`; false, with failure_ set, when it threw.
  bool deliver(const WatchdogReport& report);

  RedisConnection redis_;
  RedisLock lock_;
  Token token_;
  std::chrono::milliseconds ttl_;
  Callback report_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::optional<std::string> failure_;
  std::thread thread_;
};

}  // namespace rlock
