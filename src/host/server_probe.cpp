#include "host/server_probe.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <utility>

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock::host {
namespace {

struct AddrinfoDeleter {
  void operator()(addrinfo* a) const { freeaddrinfo(a); }
};

struct Socket {
  int fd = -1;
  explicit Socket(int descriptor) : fd(descriptor) {}
  Socket(Socket&& other) noexcept : fd(std::exchange(other.fd, -1)) {}
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  Socket& operator=(Socket&&) = delete;
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

// A connected socket to `host_port`, or throws by the deadline.
Socket connected(const std::string& host_port, std::chrono::steady_clock::time_point deadline) {
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
  return s;
}

// Sends `say` whole, or throws.
void send_all(const Socket& s, std::string_view say) {
  if (::send(s.fd, say.data(), say.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(say.size()))
    throw Error(fmt::format("send: {}", std::strerror(errno)));
}

// What the server answers, read until it closes or `enough` of it came, by the deadline.
std::string read_answer(const Socket& s, std::size_t enough, std::chrono::steady_clock::time_point deadline) {
  std::string answer;
  char buffer[4096];
  while (answer.size() < enough) {
    wait_for(s.fd, POLLIN, deadline, "answer");
    ssize_t n = ::recv(s.fd, buffer, std::min(sizeof buffer, enough - answer.size()), 0);
    if (n <= 0) break;
    answer.append(buffer, static_cast<std::size_t>(n));
  }
  return answer;
}

}  // namespace

void probe_server(const std::string& host_port, std::string_view say, std::string_view expect,
                  std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  Socket s = connected(host_port, deadline);
  if (say.empty()) return;
  send_all(s, say);
  std::string answer = read_answer(s, expect.size(), deadline);
  if (!answer.starts_with(expect)) throw Error(fmt::format("'{}' was answered '{}', not '{}'", say, answer, expect));
}

std::string ask_server(const std::string& host_port, std::string_view say, std::size_t max_bytes,
                       std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  Socket s = connected(host_port, deadline);
  send_all(s, say);
  return read_answer(s, max_bytes, deadline);
}

}  // namespace rlock::host
