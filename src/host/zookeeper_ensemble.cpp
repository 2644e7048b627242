#include "host/zookeeper_ensemble.h"

#include <fmt/format.h>

#include "host/server_probe.h"
#include "rlock/error.h"
#include "util/whole_file.h"

namespace rlock::host {
namespace {

using namespace std::chrono_literals;

constexpr std::size_t kMaxStats = 4096;  // a `srvr` answer, bounded
constexpr const char* kJar = "/usr/share/java/zookeeper.jar";

}  // namespace

ZooKeeperEnsemble::ZooKeeperEnsemble(int base_port, const std::filesystem::path& log_dir)
    : ServerCluster(std::string(kKind), 'z', base_port, kPorts) {
  auto port = [&](int block, std::size_t i) {
    return base_port + block * static_cast<int>(kMembers) + static_cast<int>(i);
  };
  std::string servers;
  for (std::size_t i = 0; i < kMembers; ++i)
    servers += fmt::format("server.{}=127.0.0.1:{}:{}\n", i + 1, port(1, i), port(2, i));
  for (std::size_t i = 0; i < kMembers; ++i) {
    std::filesystem::path dir = data_dir() / name(i);
    std::filesystem::create_directories(dir);
    util::write_whole_file(dir / "myid", fmt::format("{}\n", i + 1));
    util::write_whole_file(dir / "zoo.cfg",
                           fmt::format("tickTime=250\ninitLimit=20\nsyncLimit=4\nminSessionTimeout=500\n"
                                       "dataDir={}\nclientPort={}\nclientPortAddress=127.0.0.1\n"
                                       "admin.enableServer=false\n4lw.commands.whitelist=ruok,srvr\n{}",
                                       dir.string(), port(0, i), servers));
    Member m;
    m.log = std::filesystem::absolute(log_dir) / fmt::format("zookeeper-{}.log", name(i));
    m.args = {"java",
              "-Xmx128m",
              "-Dzookeeper.log.dir=" + dir.string(),
              "-cp",
              std::string("/etc/zookeeper/conf:") + kJar,
              "org.apache.zookeeper.server.quorum.QuorumPeerMain",
              (dir / "zoo.cfg").string()};
    members().push_back(std::move(m));
  }
  form(30s);
}

std::string ZooKeeperEnsemble::server_stats(std::size_t member, std::chrono::milliseconds timeout) const {
  try {
    return ask_server(endpoint(member), "srvr", kMaxStats, timeout);
  } catch (const Error&) {  // silent or refused: a paused or killed member
    return "";
  }
}

bool ZooKeeperEnsemble::serves(std::size_t member) const {
  return server_stats(member, 500ms).find("Mode: ") != std::string::npos;
}

std::optional<std::size_t> ZooKeeperEnsemble::leader(std::chrono::milliseconds timeout) const {
  for (std::size_t i = 0; i < kMembers; ++i) {
    if (server_stats(i, timeout).find("Mode: leader") != std::string::npos) return i;
  }
  return std::nullopt;
}

}  // namespace rlock::host
