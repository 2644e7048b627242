#include "host/server_cluster.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "host/etcd_cluster.h"
#include "host/process.h"
#include "host/temp_dir.h"
#include "host/zookeeper_ensemble.h"
#include "rlock/error.h"

namespace rlock::host {
namespace {

using namespace std::chrono_literals;

constexpr int kBasePort = 7390;  // to 7398: ports of this test alone

// A listener of someone else's on 127.0.0.1:port while it lives.
struct Listener {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  explicit Listener(int port) {
    int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);  // the first test's ports may be in TIME_WAIT
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    EXPECT_EQ(::listen(fd, 1), 0);
  }
  ~Listener() { ::close(fd); }
};

template <typename Cluster>
class AnyCluster : public ::testing::Test {};
using Kinds = ::testing::Types<EtcdCluster, ZooKeeperEnsemble>;
TYPED_TEST_SUITE(AnyCluster, Kinds);

TYPED_TEST(AnyCluster, FormsElectsAgainWhenItsLeaderPausesAndLeavesNothingRunning) {
  TempDir logs;
  std::vector<pid_t> pids;
  {
    TypeParam cluster(kBasePort, logs.path());
    EXPECT_EQ(cluster.endpoint(0), "127.0.0.1:7390");
    EXPECT_EQ(cluster.endpoint(2), "127.0.0.1:7392");
    std::optional<std::size_t> leader = cluster.leader(1s);
    ASSERT_TRUE(leader);
    for (std::size_t i = 0; i < ServerCluster::kMembers; ++i) pids.push_back(cluster.pid(i));

    cluster.pause(*leader);
    std::optional<std::size_t> next;
    EXPECT_TRUE(wait_for(15s, [&] { return (next = cluster.leader(300ms)) && *next != *leader; }))
        << "the others elect one of themselves while the leader is paused";
    cluster.resume(*leader);
    EXPECT_TRUE(cluster.healthy_within(15s));

    ASSERT_TRUE(next);
    cluster.kill(*next);
    EXPECT_FALSE(process_alive(pids[*next]));
    cluster.start_again(*next);
    EXPECT_TRUE(cluster.healthy_within(15s)) << "a member killed and started again on its data rejoins";
    EXPECT_TRUE(cluster.leader(1s));
  }
  for (pid_t pid : pids) EXPECT_FALSE(process_alive(pid)) << pid;
}

TEST(EtcdCluster, RefusesATakenPortBeforeStartingAnyMember) {
  TempDir logs;
  Listener foreign(kBasePort + 4);
  try {
    EtcdCluster cluster(kBasePort, logs.path());
    FAIL() << "started beside a listener of someone else's";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "etcd cluster: port 7394 on 127.0.0.1 is taken (give another --cluster-port)");
  }
}

TEST(ZooKeeperEnsemble, RefusesATakenPortBeforeStartingAnyMember) {
  TempDir logs;
  Listener foreign(kBasePort + 8);
  try {
    ZooKeeperEnsemble ensemble(kBasePort, logs.path());
    FAIL() << "started beside a listener of someone else's";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "ZooKeeper ensemble: port 7398 on 127.0.0.1 is taken (give another --cluster-port)");
  }
}

}  // namespace
}  // namespace rlock::host
