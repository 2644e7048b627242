// A ZooKeeper ensemble of rlock's own (server_cluster.h): three servers, z1 to z3, member i
// serving clients on base_port + i, its quorum on base_port + 3 + i and its election on
// base_port + 6 + i, with a tick of 250 ms (a follower that hears no leader for 4 ticks, 1 s, leaves
// it, as a session of a TTL of 1 s expires). Its leader as the members' `srvr` say. Not
// thread-safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string_view>

#include "host/server_cluster.h"

namespace rlock::host {

class ZooKeeperEnsemble : public ServerCluster {
 public:
  static constexpr int kPorts = 3 * kMembers;  // a client, a quorum and an election port a member
  static constexpr std::string_view kKind = "ZooKeeper ensemble";

  // Starts the members (`java` on PATH, Debian's /usr/share/java/zookeeper.jar) and waits (bounded)
  // until each serves. Throws Error, in one line, naming the port or the member and its log.
  ZooKeeperEnsemble(int base_port, const std::filesystem::path& log_dir);

  std::optional<std::size_t> leader(std::chrono::milliseconds timeout) const override;

 private:
  bool serves(std::size_t member) const override;
  // Member i's `srvr` answer: its mode among them ("Mode: leader"); "" when it does not answer.
  std::string server_stats(std::size_t member, std::chrono::milliseconds timeout) const;
};

}  // namespace rlock::host
