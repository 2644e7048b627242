#include "protocol/protocol_client.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <thread>

#include <fmt/format.h>

#include "host/child.h"

namespace rlock {
namespace {

using Clock = std::chrono::steady_clock;

// The shell has exited (it is left a zombie, so its pid, the group's id, is not reused yet).
bool has_exited(pid_t pid) {
  siginfo_t info{};
  return ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

}  // namespace

ProtocolClient::ProtocolClient(const std::string& command, const std::filesystem::path& stderr_file)
    : stderr_file_(stderr_file) {
  // One socket pair is the client's stdin and stdout: a send to a client that exited fails with
  // EPIPE (MSG_NOSIGNAL) instead of killing rlock, and shutdown() closes its stdin alone.
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
    throw Error(fmt::format("socketpair failed: {}", std::strerror(errno)));
  }
  try {
    pid_ = spawn_child({"/bin/sh", "-c", command}, SpawnOptions{ends[1], stderr_file, /*own_group=*/true});
  } catch (const Error&) {
    ::close(ends[0]);
    ::close(ends[1]);
    throw;
  }
  ::close(ends[1]);
  to_client_ = from_client_ = ends[0];
  ::fcntl(from_client_, F_SETFL, ::fcntl(from_client_, F_GETFL) | O_NONBLOCK);
}

ProtocolClient::~ProtocolClient() {
  ::shutdown(to_client_, SHUT_WR);  // the client's stdin ends: it should exit now
  auto deadline = Clock::now() + std::chrono::seconds(1);
  while (!has_exited(pid_) && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ::kill(-pid_, SIGKILL);  // whatever of the group is left, stopped or not
  ::kill(-pid_, SIGCONT);
  reap(pid_);
  ::close(to_client_);
}

void ProtocolClient::send(std::string_view message) {
  std::string line = std::string(message) + "\n";
  std::size_t sent = 0;
  while (sent < line.size()) {
    ssize_t n = ::send(to_client_, line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd writable{to_client_, POLLOUT, 0};
      if (::poll(&writable, 1, 1000) <= 0) throw ClientError("the client reads nothing: its stdin is full");
      continue;
    }
    if (n < 0) throw ClientError(fmt::format("the client no longer reads its stdin (it exited?): {}", std::strerror(errno)));
    sent += static_cast<std::size_t>(n);
  }
}

std::optional<std::string> ProtocolClient::receive() {
  while (lines_.empty() && !closed_) {
    char buffer[4096];
    ssize_t n = ::read(from_client_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    if (n <= 0) {
      closed_ = true;
      break;
    }
    partial_.append(buffer, static_cast<std::size_t>(n));
    for (std::size_t end; (end = partial_.find('\n')) != std::string::npos; partial_.erase(0, end + 1)) {
      lines_.push_back(partial_.substr(0, end));
    }
  }
  if (lines_.empty()) {
    if (closed_) throw ClientError("the client closed its stdout (it exited)");
    return std::nullopt;
  }
  std::string line = std::move(lines_.front());
  lines_.pop_front();
  return line;
}

std::string ProtocolClient::receive_within(std::chrono::milliseconds limit) {
  auto deadline = Clock::now() + limit;
  for (;;) {
    if (std::optional<std::string> line = receive()) return *line;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) throw ClientError(fmt::format("the client said nothing for {} ms", limit.count()));
    pollfd readable{from_client_, POLLIN, 0};
    ::poll(&readable, 1, static_cast<int>(left.count()));
  }
}

std::string ProtocolClient::stderr_tail(std::size_t bytes) const {
  std::ifstream in(stderr_file_, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.size() > bytes) text.erase(0, text.size() - bytes);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

}  // namespace rlock
