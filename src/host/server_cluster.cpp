#include "host/server_cluster.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fmt/format.h>

#include "host/child.h"
#include "host/process.h"
#include "host/server_log.h"
#include "rlock/error.h"

namespace rlock::host {
namespace {

// Whether nothing listens on 127.0.0.1:port (a bind succeeds): a member must not meet a server
// of someone else's that would answer in its place.
bool port_free(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  int yes = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);  // a port in TIME_WAIT is free
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bool bound = ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  return bound;
}

}  // namespace

void check_ports_free(std::string_view kind, int base_port, int ports) {
  for (int port = base_port; port < base_port + ports; ++port) {
    if (!port_free(port))
      throw Error(fmt::format("{}: port {} on 127.0.0.1 is taken (give another --cluster-port)", kind, port));
  }
}

ServerCluster::ServerCluster(std::string kind, char prefix, int base_port, int ports)
    : kind_(std::move(kind)), prefix_(prefix), base_port_(base_port) {
  check_ports_free(kind_, base_port, ports);
}

ServerCluster::~ServerCluster() { stop_all(); }

void ServerCluster::form(std::chrono::seconds limit) {
  try {
    for (Member& m : members_) start(m);
    for (std::size_t i = 0; i < members_.size(); ++i) {
      bool exited = false;
      bool up = wait_for(limit, [&] {
        exited = try_reap(members_[i].pid).has_value();
        return exited || serves(i);
      });
      if (exited) members_[i].pid = 0;
      if (exited || !up) {
        throw Error(fmt::format("{}: member {} on {} did not form in {} s: {} (its log: {})", kind_, name(i),
                                endpoint(i), limit.count(), last_log_line(members_[i].log).substr(0, 300),
                                members_[i].log.string()));
      }
    }
  } catch (...) {
    stop_all();
    throw;
  }
}

void ServerCluster::start(Member& m) {
  // Its stdout and stderr both to its log (a JVM's logger writes to stdout); stdin is that file too,
  // which a server never reads.
  int log = ::open(m.log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (log < 0) throw Error(fmt::format("{}: cannot write its log {}", kind_, m.log.string()));
  SpawnOptions options;
  options.stdin_stdout = log;
  options.stderr_fd = log;
  options.dies_with_parent = true;
  try {
    m.pid = spawn_child(m.args, options);
  } catch (...) {
    ::close(log);
    throw;
  }
  ::close(log);
}

void ServerCluster::stop_all() {
  for (Member& m : members_) {
    if (m.pid != 0) kill_and_reap(m.pid);  // SIGKILL ends a stopped member too
    m.pid = 0;
  }
}

std::string ServerCluster::endpoint(std::size_t member) const {
  return fmt::format("127.0.0.1:{}", base_port_ + static_cast<int>(member));
}

std::string ServerCluster::name(std::size_t member) const { return fmt::format("{}{}", prefix_, member + 1); }

bool ServerCluster::healthy_within(std::chrono::milliseconds limit) const {
  return wait_for(limit, [&] {
    for (std::size_t i = 0; i < members_.size(); ++i) {
      if (!serves(i)) return false;
    }
    return true;
  });
}

void ServerCluster::signal(std::size_t member, int number) {
  pid_t pid = members_.at(member).pid;
  if (pid == 0) throw Error(fmt::format("{}: member {} is not running", kind_, name(member)));  // kill(0) is ours
  ::kill(pid, number);
}

void ServerCluster::pause(std::size_t member) { signal(member, SIGSTOP); }

void ServerCluster::resume(std::size_t member) { signal(member, SIGCONT); }

void ServerCluster::kill(std::size_t member) {
  Member& m = members_.at(member);
  if (m.pid != 0) kill_and_reap(m.pid);
  m.pid = 0;
}

void ServerCluster::start_again(std::size_t member) {
  Member& m = members_.at(member);
  if (m.pid == 0) start(m);
}

}  // namespace rlock::host
