#include "host/server_probe.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock::host {
namespace {

struct AddrinfoDeleter {
  void operator()(addrinfo* a) const { freeaddrinfo(a); }
};

struct Socket {
  int fd = -1;
  ~Socket() {
    if (fd >= 0) ::close(fd);
  }
};

// Waits until `fd` is ready for `events`, or throws once the deadline passed.
void wait_for(int fd, short events, std::chrono::steady_clock::time_point deadline, const char* what) {
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{fd, events, 0};
    int ready = ::poll(&p, 1, static_cast<int>(std::max<long long>(left.count(), 0)));
    if (ready > 0) return;
    if (ready == 0) throw Error(fmt::format("no {} within the time given", what));
    if (errno != EINTR) throw Error(fmt::format("poll: {}", std::strerror(errno)));
  }
}

}  // namespace

void probe_server(const std::string& host_port, std::string_view say, std::string_view expect,
                  std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  std::size_t colon = host_port.rfind(':');
  if (colon == std::string::npos) throw Error(fmt::format("'{}' is not HOST:PORT", host_port));
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (int rc = ::getaddrinfo(host_port.substr(0, colon).c_str(), host_port.substr(colon + 1).c_str(), &hints, &found);
      rc != 0) {
    throw Error(fmt::format("'{}': {}", host_port, gai_strerror(rc)));
  }
  std::unique_ptr<addrinfo, AddrinfoDeleter> address(found);
  Socket s{::socket(address->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0)};
  if (s.fd < 0) throw Error(fmt::format("socket: {}", std::strerror(errno)));
  if (::connect(s.fd, address->ai_addr, address->ai_addrlen) != 0 && errno != EINPROGRESS)
    throw Error(fmt::format("connect: {}", std::strerror(errno)));
  wait_for(s.fd, POLLOUT, deadline, "connection");
  int error = 0;
  socklen_t length = sizeof error;
  ::getsockopt(s.fd, SOL_SOCKET, SO_ERROR, &error, &length);
  if (error != 0) throw Error(fmt::format("connect: {}", std::strerror(error)));
  if (say.empty()) return;
  if (::send(s.fd, say.data(), say.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(say.size()))
    throw Error(fmt::format("send: {}", std::strerror(errno)));
  std::string answer;
  char buffer[64];
  while (answer.size() < expect.size()) {
    wait_for(s.fd, POLLIN, deadline, "answer");
    ssize_t n = ::recv(s.fd, buffer, sizeof buffer, 0);
    if (n <= 0) break;
    answer.append(buffer, static_cast<std::size_t>(n));
  }
  if (!answer.starts_with(expect)) throw Error(fmt::format("'{}' was answered '{}', not '{}'", say, answer, expect));
}

}  // namespace rlock::host
