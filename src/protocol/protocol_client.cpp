#include "protocol/protocol_client.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "host/child.h"
#include "protocol/client_environment.h"

namespace rlock::protocol {
namespace {

using Clock = std::chrono::steady_clock;

// The shell has exited (it is left a zombie, so its pid, the group's id, is not reused yet).
bool has_exited(pid_t pid) {
  siginfo_t info{};
  return ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

// util-linux's unshare forks the shell as the first process of a new PID namespace and, with
// --kill-child, kills it when unshare itself is killed.
const std::vector<std::string> kPidNamespace{"unshare", "--pid", "--fork", "--kill-child"};

std::vector<std::string> client_argv(const std::string& command) {
  std::vector<std::string> argv = clients_get_pid_namespace() ? kPidNamespace : std::vector<std::string>{};
  argv.insert(argv.end(), {"/bin/sh", "-c", command});
  return argv;
}

// Waits up to `timeout` for `fds` to be readable.
void wait_readable(std::initializer_list<int> fds, std::chrono::milliseconds timeout) {
  std::vector<pollfd> polled;
  for (int fd : fds) polled.push_back(pollfd{fd, POLLIN, 0});
  ::poll(polled.data(), polled.size(), static_cast<int>(timeout.count()));
}

}  // namespace

bool clients_get_pid_namespace() {
  static const bool available = [] {
    std::vector<std::string> probe = kPidNamespace;
    probe.push_back("true");
    bool works = false;
    try {
      works = host::reap(host::spawn_child(probe, host::SpawnOptions{.stderr_file = "/dev/null"})).succeeded();
    } catch (const Error&) {
    }
    if (!works) {
      fmt::print(stderr,
                 "rlock: clients run without a PID namespace (`unshare --pid` failed; it needs root): a "
                 "process a client starts in a session of its own may outlive its trial\n");
    }
    return works;
  }();
  return available;
}

ProtocolClient::ProtocolClient(const std::string& command, const std::filesystem::path& stderr_file,
                               const std::vector<std::string>& environment_overrides) {
  // One socket pair is the client's stdin and stdout: a send to a client that exited fails with
  // EPIPE (MSG_NOSIGNAL) instead of killing rlock, and shutdown() closes its stdin alone.
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
    throw Error(fmt::format("socketpair failed: {}", std::strerror(errno)));
  }
  int errors[2];
  if (::pipe2(errors, O_CLOEXEC) != 0) {
    ::close(ends[0]);
    ::close(ends[1]);
    throw Error(fmt::format("pipe failed: {}", std::strerror(errno)));
  }
  try {
    stderr_ = std::make_unique<ClientStderr>(errors[0], stderr_file);
    pid_ =
        host::spawn_child(client_argv(command),
                          host::SpawnOptions{.stdin_stdout = ends[1],
                                             .stderr_fd = errors[1],
                                             .own_group = true,
                                             .environment = with_overrides(client_environment(), environment_overrides),
                                             .dies_with_parent = true});
  } catch (const Error&) {
    if (!stderr_) ::close(errors[0]);
    ::close(errors[1]);
    ::close(ends[0]);
    ::close(ends[1]);
    throw;
  }
  ::close(errors[1]);
  ::close(ends[1]);
  to_client_ = from_client_ = ends[0];
  ::fcntl(from_client_, F_SETFL, ::fcntl(from_client_, F_GETFL) | O_NONBLOCK);
}

ProtocolClient::~ProtocolClient() {
  ::shutdown(to_client_, SHUT_WR);  // the client's stdin ends: it should exit now
  auto deadline = Clock::now() + std::chrono::seconds(1);
  while (!has_exited(pid_) && Clock::now() < deadline) {
    stderr_->drain();  // a client blocked on its stderr could not exit
    wait_readable({stderr_->fd()}, std::chrono::milliseconds(5));
  }
  ::kill(-pid_, SIGKILL);  // whatever of the group is left, stopped or not
  ::kill(-pid_, SIGCONT);
  host::reap(pid_);
  ::close(to_client_);
}

void ProtocolClient::end_stdin() { ::shutdown(to_client_, SHUT_WR); }

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
    if (n < 0)
      throw ClientError(fmt::format("the client no longer reads its stdin (it exited?): {}", std::strerror(errno)));
    sent += static_cast<std::size_t>(n);
  }
}

std::optional<std::string> ProtocolClient::receive() {
  stderr_->drain();
  while (lines_.empty() && !closed_) {
    char buffer[4096];
    ssize_t n = ::read(from_client_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    if (n <= 0) {
      closed_ = true;
      break;
    }
    std::size_t scanned = partial_.size();
    partial_.append(buffer, static_cast<std::size_t>(n));
    std::size_t start = 0;
    for (std::size_t end; (end = partial_.find('\n', scanned)) != std::string::npos; scanned = start = end + 1) {
      if (end - start > kMaxLineBytes) break;
      lines_.push_back(partial_.substr(start, end - start));
    }
    partial_.erase(0, start);
    if (partial_.size() > kMaxLineBytes) {
      throw ClientError(
          fmt::format("the client wrote a line longer than {} KiB: {:.120}", kMaxLineBytes / 1024, partial_));
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
    wait_readable({from_client_, stderr_->fd()}, left);
  }
}

}  // namespace rlock::protocol
