// An etcd cluster of rlock's own (server_cluster.h): three members, e1 to e3, member i serving
// clients on base_port + i and its peers on base_port + 3 + i, one cluster of a token of its own.
// Its leader as the members' gateways say. Not thread-safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string_view>

#include "host/server_cluster.h"

namespace rlock::host {

class EtcdCluster : public ServerCluster {
 public:
  static constexpr int kPorts = 2 * kMembers;  // a client and a peer port a member
  static constexpr std::string_view kKind = "etcd cluster";

  // Starts the members (`etcd` on PATH) and waits (bounded) until each answers healthy. Throws
  // Error, in one line, naming the port or the member and its log: a port taken, no etcd, a
  // member that did not form.
  EtcdCluster(int base_port, const std::filesystem::path& log_dir);

  std::optional<std::size_t> leader(std::chrono::milliseconds timeout) const override;

 private:
  bool serves(std::size_t member) const override;
};

}  // namespace rlock::host
