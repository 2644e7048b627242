// The client's own bound on a PostgreSQL statement, for a server that cannot enforce
// statement_timeout because it is frozen (SIGSTOPped, its host hung) while the kernel still keeps
// its socket open: a watchdog thread that, when a statement has waited past the limit, shuts the
// connection's socket down, so libpq's wait ends with a broken connection that the store then
// names as a frozen server. It also turns TCP keepalives on for the socket it watches, so that a
// peer gone silent is noticed between statements too.
//
// Owned by one connection (AccountStore::Connection); arm() and disarm() come from that
// connection's thread, the watchdog runs on its own and is joined by the destructor. A process
// that forks while one exists must _exit in the child without destroying it (host/child.h does).
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace rlock::bank {

class StatementDeadline {
 public:
  explicit StatementDeadline(std::chrono::milliseconds limit);
  ~StatementDeadline();
  StatementDeadline(const StatementDeadline&) = delete;
  StatementDeadline& operator=(const StatementDeadline&) = delete;

  // A statement is sent on socket `fd`: from now it has `limit` to be answered.
  void arm(int fd);
  void disarm();
  // Whether the watchdog cut a statement off since the last arm().
  bool fired() const;
  std::chrono::milliseconds limit() const { return limit_; }

 private:
  void watch();
  void keep_alive(int fd);

  using Clock = std::chrono::steady_clock;
  const std::chrono::milliseconds limit_;
  mutable std::mutex mutex_;
  std::condition_variable stop_;
  bool stopping_ = false;
  int fd_ = -1;  // the armed statement's socket; -1: none
  int kept_alive_fd_ = -1;
  Clock::time_point deadline_;
  bool fired_ = false;
  std::thread watchdog_;  // last: starts once the rest is set
};

}  // namespace rlock::bank
