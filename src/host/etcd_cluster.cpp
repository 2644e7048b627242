#include "host/etcd_cluster.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "host/server_probe.h"
#include "rlock/token.h"

namespace rlock::host {
namespace {

using namespace std::chrono_literals;

constexpr std::size_t kMaxGatewayAnswer = 64 * 1024;  // an answer of etcd's gateway, bounded

std::string address(int port) { return fmt::format("127.0.0.1:{}", port); }

// The body of an HTTP/1.0 answer, or "" when it is not a 200.
std::string http(const std::string& host_port, std::string_view method, std::string_view path, std::string_view body,
                 std::chrono::milliseconds timeout) {
  std::string request = fmt::format(
      "{} {} HTTP/1.0\r\nHost: {}\r\nContent-Type: application/json\r\n"
      "Content-Length: {}\r\n\r\n{}",
      method, path, host_port, body.size(), body);
  std::string answer = ask_server(host_port, request, kMaxGatewayAnswer, timeout);
  if (!answer.starts_with("HTTP/1.0 200") && !answer.starts_with("HTTP/1.1 200")) return "";
  std::size_t end = answer.find("\r\n\r\n");
  return end == std::string::npos ? "" : answer.substr(end + 4);
}

// A member's id as the gateway writes it: a uint64 as a string (or a number); "" when missing.
std::string id_text(const nlohmann::json& id) {
  if (id.is_string()) return id.get<std::string>();
  return id.is_number_unsigned() ? std::to_string(id.get<std::uint64_t>()) : "";
}

}  // namespace

EtcdCluster::EtcdCluster(int base_port, const std::filesystem::path& log_dir)
    : ServerCluster(std::string(kKind), 'e', base_port, kPorts) {
  std::string token = make_token().hex;  // the cluster's own: no member of another cluster joins it
  std::string initial;
  auto peer_port = [&](std::size_t i) { return base_port + static_cast<int>(kMembers + i); };
  for (std::size_t i = 0; i < kMembers; ++i) {
    initial += fmt::format("{}{}=http://{}", i == 0 ? "" : ",", name(i), address(peer_port(i)));
  }
  for (std::size_t i = 0; i < kMembers; ++i) {
    std::string client = "http://" + endpoint(i), peer = "http://" + address(peer_port(i));
    Member m;
    m.log = std::filesystem::absolute(log_dir) / fmt::format("etcd-{}.log", name(i));
    m.args = {"etcd",
              "--name=" + name(i),
              "--data-dir=" + (data_dir() / name(i)).string(),
              "--listen-client-urls=" + client,
              "--advertise-client-urls=" + client,
              "--listen-peer-urls=" + peer,
              "--initial-advertise-peer-urls=" + peer,
              "--initial-cluster=" + initial,
              "--initial-cluster-token=rlock-" + token,
              "--initial-cluster-state=new",
              "--logger=zap",
              "--log-outputs=stderr"};
    members().push_back(std::move(m));
  }
  form(20s);
}

bool EtcdCluster::serves(std::size_t member) const {
  try {
    nlohmann::json health = nlohmann::json::parse(http(endpoint(member), "GET", "/health", "", 500ms), nullptr, false);
    return health.is_object() && health.value("health", "") == "true";
  } catch (const std::exception&) {
    return false;
  }
}

std::optional<std::size_t> EtcdCluster::leader(std::chrono::milliseconds timeout) const {
  std::vector<std::string> ids(kMembers);
  std::string leader;
  for (std::size_t i = 0; i < kMembers; ++i) {
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

}  // namespace rlock::host
