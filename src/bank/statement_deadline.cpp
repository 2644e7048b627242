#include "bank/statement_deadline.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <algorithm>

namespace rlock::bank {
namespace {

// A dead peer is noticed after 5 s of silence and 3 unanswered probes 2 s apart.
constexpr int kKeepIdleS = 5, kKeepIntervalS = 2, kKeepCount = 3;

}  // namespace

StatementDeadline::StatementDeadline(std::chrono::milliseconds limit) : limit_(limit), watchdog_([this] { watch(); }) {}

StatementDeadline::~StatementDeadline() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_.notify_one();
  watchdog_.join();
}

void StatementDeadline::arm(int fd) {
  std::lock_guard lock(mutex_);
  if (fd != kept_alive_fd_) keep_alive(fd);
  fd_ = fd;
  deadline_ = Clock::now() + limit_;
  fired_ = false;
}

void StatementDeadline::disarm() {
  std::lock_guard lock(mutex_);
  fd_ = -1;
}

bool StatementDeadline::fired() const {
  std::lock_guard lock(mutex_);
  return fired_;
}

// Best effort: a Unix socket has no keepalives, and then nothing is set.
void StatementDeadline::keep_alive(int fd) {
  kept_alive_fd_ = fd;
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) return;
  if (address.ss_family != AF_INET && address.ss_family != AF_INET6) return;
  int on = 1;
  setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &kKeepIdleS, sizeof kKeepIdleS);
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &kKeepIntervalS, sizeof kKeepIntervalS);
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &kKeepCount, sizeof kKeepCount);
}

// Wakes every tenth of the limit (100 ms at most) rather than at each arm(), so that a statement
// costs a lock and no wake-up.
void StatementDeadline::watch() {
  auto tick = std::min<std::chrono::milliseconds>(limit_ / 10, std::chrono::milliseconds(100));
  std::unique_lock lock(mutex_);
  while (!stop_.wait_for(lock, tick, [this] { return stopping_; })) {
    if (fd_ < 0 || Clock::now() < deadline_) continue;
    shutdown(fd_, SHUT_RDWR);  // libpq's wait returns: the connection is broken
    fd_ = -1;
    fired_ = true;
  }
}

}  // namespace rlock::bank
