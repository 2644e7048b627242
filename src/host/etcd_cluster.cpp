#include "host/etcd_cluster.h"

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "host/child.h"
#include "host/process.h"
#include "host/server_probe.h"
#include "rlock/error.h"
#include "rlock/token.h"

namespace rlock::host {
namespace {

using namespace std::chrono_literals;

constexpr std::size_t kMaxAnswer = 64 * 1024;  // an answer of etcd's gateway, bounded

std::string address(int port) { return fmt::format("127.0.0.1:{}", port); }

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

// The body of an HTTP/1.0 answer, or "" when it is not a 200.
std::string http(const std::string& host_port, std::string_view method, std::string_view path, std::string_view body,
                 std::chrono::milliseconds timeout) {
  std::string request = fmt::format(
      "{} {} HTTP/1.0\r\nHost: {}\r\nContent-Type: application/json\r\n"
      "Content-Length: {}\r\n\r\n{}",
      method, path, host_port, body.size(), body);
  std::string answer = ask_server(host_port, request, kMaxAnswer, timeout);
  if (!answer.starts_with("HTTP/1.0 200") && !answer.starts_with("HTTP/1.1 200")) return "";
  std::size_t end = answer.find("\r\n\r\n");
  return end == std::string::npos ? "" : answer.substr(end + 4);
}

// Whether the member at `host_port` says it is healthy (it has a leader).
bool healthy(const std::string& host_port) {
  try {
    return nlohmann::json::parse(http(host_port, "GET", "/health", "", 500ms), nullptr, false).value("health", "") ==
           "true";
  } catch (const std::exception&) {
    return false;
  }
}

// A member's id as the gateway writes it: a uint64 as a string (or a number); "" when missing.
std::string id_text(const nlohmann::json& id) {
  if (id.is_string()) return id.get<std::string>();
  return id.is_number_unsigned() ? std::to_string(id.get<std::uint64_t>()) : "";
}

// The last line a member wrote to its log: why it did not start, usually.
std::string last_line(const std::filesystem::path& log) {
  std::ifstream in(log);
  std::string line, last;
  while (std::getline(in, line)) {
    if (!line.empty()) last = line;
  }
  return last.empty() ? "no log" : last.substr(0, 300);
}

}  // namespace

EtcdCluster::EtcdCluster(int base_port, const std::filesystem::path& log_dir) : base_port_(base_port) {
  std::string token = make_token().hex;  // the cluster's own: no member of another cluster joins it
  std::string initial;
  for (int i = 0; i < kMembers; ++i) {
    initial += fmt::format("{}e{}=http://{}", i == 0 ? "" : ",", i + 1, address(base_port + kMembers + i));
  }
  for (int i = 0; i < kMembers; ++i) {
    std::string client = "http://" + address(base_port + i), peer = "http://" + address(base_port + kMembers + i);
    Member m;
    m.log = std::filesystem::absolute(log_dir) / fmt::format("etcd-e{}.log", i + 1);
    m.args = {"etcd",
              "--name=" + name(static_cast<std::size_t>(i)),
              "--data-dir=" + (data_.path() / name(static_cast<std::size_t>(i))).string(),
              "--listen-client-urls=" + client,
              "--advertise-client-urls=" + client,
              "--listen-peer-urls=" + peer,
              "--initial-advertise-peer-urls=" + peer,
              "--initial-cluster=" + initial,
              "--initial-cluster-token=rlock-" + token,
              "--initial-cluster-state=new",
              "--logger=zap",
              "--log-outputs=stderr"};
    members_.push_back(std::move(m));
  }
  for (int port = base_port; port < base_port + kPorts; ++port) {
    if (!port_free(port))
      throw Error(fmt::format("etcd cluster: port {} on 127.0.0.1 is taken (give another --cluster-port)", port));
  }
  try {
    for (Member& m : members_) start(m);
    for (std::size_t i = 0; i < members_.size(); ++i) {
      bool exited = false;
      bool up = wait_for(20s, [&] {
        exited = try_reap(members_[i].pid).has_value();
        return exited || healthy(endpoint(i));
      });
      if (exited) members_[i].pid = 0;
      if (exited || !up) {
        throw Error(fmt::format("etcd cluster: member {} on {} did not form in 20 s: {} (its log: {})", name(i),
                                endpoint(i), last_line(members_[i].log), members_[i].log.string()));
      }
    }
  } catch (...) {
    stop_all();
    throw;
  }
}

EtcdCluster::~EtcdCluster() { stop_all(); }

void EtcdCluster::start(Member& m) {
  SpawnOptions options;
  options.stderr_file = m.log;
  options.dies_with_parent = true;
  m.pid = spawn_child(m.args, options);
}

void EtcdCluster::stop_all() {
  for (Member& m : members_) {
    if (m.pid != 0) kill_and_reap(m.pid);  // SIGKILL ends a stopped member too
    m.pid = 0;
  }
}

std::string EtcdCluster::endpoints() const {
  std::string list;
  for (std::size_t i = 0; i < members_.size(); ++i) list += (i == 0 ? "" : ",") + endpoint(i);
  return list;
}

std::string EtcdCluster::endpoint(std::size_t member) const { return address(base_port_ + static_cast<int>(member)); }

std::string EtcdCluster::name(std::size_t member) const { return fmt::format("e{}", member + 1); }

std::optional<std::size_t> EtcdCluster::leader(std::chrono::milliseconds timeout) const {
  std::vector<std::string> ids(members_.size());
  std::string leader;
  for (std::size_t i = 0; i < members_.size(); ++i) {
    try {
      nlohmann::json status =
          nlohmann::json::parse(http(endpoint(i), "POST", "/v3/maintenance/status", "{}", timeout), nullptr, false);
      if (!status.is_object()) continue;  // refused, or not a 200
      ids[i] = id_text(status.value("/header/member_id"_json_pointer, nlohmann::json()));
      if (std::string said = id_text(status.value("leader", nlohmann::json())); !said.empty() && said != "0")
        leader = said;
    } catch (const std::exception&) {  // silent or refused: a paused or killed member
    }
  }
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (!leader.empty() && ids[i] == leader) return i;
  }
  return std::nullopt;
}

bool EtcdCluster::healthy_within(std::chrono::milliseconds limit) const {
  return wait_for(limit, [&] {
    for (std::size_t i = 0; i < members_.size(); ++i) {
      if (!healthy(endpoint(i))) return false;
    }
    return true;
  });
}

void EtcdCluster::signal(std::size_t member, int number) {
  pid_t pid = members_.at(member).pid;
  if (pid == 0) throw Error(fmt::format("etcd cluster: member {} is not running", name(member)));  // kill(0) is ours
  ::kill(pid, number);
}

void EtcdCluster::pause(std::size_t member) { signal(member, SIGSTOP); }

void EtcdCluster::resume(std::size_t member) { signal(member, SIGCONT); }

void EtcdCluster::kill(std::size_t member) {
  Member& m = members_.at(member);
  if (m.pid != 0) kill_and_reap(m.pid);
  m.pid = 0;
}

void EtcdCluster::start_again(std::size_t member) {
  Member& m = members_.at(member);
  if (m.pid == 0) start(m);
}

}  // namespace rlock::host
