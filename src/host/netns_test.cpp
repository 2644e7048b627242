#include "host/netns.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "host/child.h"
#include "host/process.h"
#include "host/temp_dir.h"
#include "rlock/error.h"
#include "rlock/redis_connection.h"

// These tests build namespaces and nftables rules: they run as root, as CI does (scripts/test.sh),
// and fail otherwise.
namespace rlock::host {
namespace {

using namespace std::chrono_literals;

constexpr int kRedisPort = 6379;  // the redis namespace's own: no server of the machine's is there

// What `command` printed on stdout.
std::string output_of(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command.c_str(), "r"), ::pclose);
  std::string out;
  std::array<char, 4096> buffer{};
  while (pipe && std::fgets(buffer.data(), buffer.size(), pipe.get()) != nullptr) out += buffer.data();
  return out;
}

// Exit code 0 when a fresh connection from `member` to the lab's Redis answers PING within `timeout`.
bool pings(const NetnsBridge& lab, const std::string& member, std::chrono::milliseconds timeout) {
  pid_t pid = fork_child([&] {
    lab.enter(member);
    RedisAddress redis;
    redis.host = lab.address("redis");
    redis.port = kRedisPort;
    RedisConnection connection(redis, RedisTimeouts{timeout, timeout});
    return connection.command({"PING"}).text() == "PONG" ? 0 : 1;
  });
  return reap(pid).succeeded();
}

// A connection from `member` opened before a fault, that sends one PING when told (a byte on a pipe)
// and exits 0 when it was answered within `timeout`.
class HeldConnection {
 public:
  HeldConnection(const NetnsBridge& lab, const std::string& member, std::chrono::milliseconds timeout) {
    if (::pipe(ready_) != 0 || ::pipe(go_) != 0) throw Error("pipe failed");
    pid_ = fork_child([&] {
      lab.enter(member);
      RedisAddress redis;
      redis.host = lab.address("redis");
      redis.port = kRedisPort;
      RedisConnection connection(redis, RedisTimeouts{timeout, timeout});
      char byte = 'r';
      if (::write(ready_[1], &byte, 1) != 1 || ::read(go_[0], &byte, 1) != 1) return 2;
      try {
        return connection.command({"PING"}).text() == "PONG" ? 0 : 1;
      } catch (const OutcomeUnknown&) {
        return 3;  // sent, and no answer in time
      }
    });
    char byte = 0;
    connected_ = ::read(ready_[0], &byte, 1) == 1;
  }
  ~HeldConnection() {
    for (int fd : {ready_[0], ready_[1], go_[0], go_[1]}) ::close(fd);
    if (pid_ > 0 && !done_) kill_and_reap(pid_);
  }
  bool connected() const { return connected_; }
  // Sends the PING; its exit code.
  int ping() {
    char byte = 'g';
    if (::write(go_[1], &byte, 1) != 1) return -1;
    done_ = true;
    return reap(pid_).code();
  }

 private:
  int ready_[2] = {-1, -1};
  int go_[2] = {-1, -1};
  pid_t pid_ = 0;
  bool connected_ = false;
  bool done_ = false;
};

TEST(NetnsBridge, APartitionCutsOneWorkerOffRedisAndHealingLetsItBackIn) {
  ASSERT_EQ(::geteuid(), 0u) << "netns_test needs root (CI runs as root)";
  std::string prefix = fmt::format("{}{}-", NetnsBridge::kPrefix, ::getpid());
  TempDir dir("rlock-netns-test");
  pid_t server = 0;
  pid_t idle = 0;
  {
    NetnsBridge lab({"redis", "w0", "w1"});
    EXPECT_EQ(lab.address("redis"), "127.77.0.1");
    EXPECT_NE(output_of("ip netns list").find(lab.namespace_of("w0")), std::string::npos);
    server = lab.spawn("redis", {"redis-server", "--bind", lab.address("redis"), "--port", std::to_string(kRedisPort),
                                 "--save", "", "--appendonly", "no", "--protected-mode", "no", "--dir",
                                 dir.path().string(), "--logfile", (dir.path() / "redis.log").string()});
    ASSERT_TRUE(wait_for(5s, [&] { return pings(lab, "w0", 200ms); })) << "redis in its namespace never answered w0";
    idle = lab.spawn("w1", {"sleep", "60"});  // left running: the lab's end kills it

    HeldConnection held(lab, "w0", 500ms);
    ASSERT_TRUE(held.connected());
    lab.partition("w0", "redis");
    EXPECT_EQ(held.ping(), 3) << "a PING over a connection opened before the partition was answered";
    EXPECT_FALSE(pings(lab, "w0", 300ms)) << "w0 connected to redis across the partition";
    EXPECT_TRUE(pings(lab, "w1", 300ms)) << "the partition cut w1 off as well";

    lab.heal("w0", "redis");
    EXPECT_TRUE(pings(lab, "w0", 1000ms)) << "w0 still cut off after the heal";
    kill_and_reap(server);
  }
  ChildExit idle_end = reap(idle);
  EXPECT_TRUE(WIFSIGNALED(idle_end.status) && WTERMSIG(idle_end.status) == SIGKILL)
      << "a process left in a namespace outlived the lab";
  EXPECT_EQ(output_of("ip netns list").find(prefix), std::string::npos);
  EXPECT_EQ(output_of("ip link").find(NetnsBridge::kPrefix), std::string::npos);
  EXPECT_EQ(output_of("nft list ruleset").find(NetnsBridge::kPrefix), std::string::npos);
}

TEST(NetnsBridge, CleanupRemovesWhatACrashedRunLeftBehind) {
  ASSERT_EQ(::geteuid(), 0u) << "netns_test needs root (CI runs as root)";
  // A run that dies by SIGKILL, its lab never destroyed, a process still inside one namespace.
  TempDir dir("rlock-netns-test");
  std::filesystem::path pid_file = dir.path() / "pid";
  pid_t crashed = fork_child([&] {
    NetnsBridge lab({"redis", "w0"});
    pid_t inside = lab.spawn("redis", {"sleep", "60"});
    std::FILE* out = std::fopen(pid_file.c_str(), "w");
    std::fprintf(out, "%d", inside);
    std::fclose(out);
    ::kill(::getpid(), SIGKILL);
    return 0;
  });
  reap(crashed);
  pid_t inside = std::atoi(output_of("cat " + pid_file.string()).c_str());
  ASSERT_GT(inside, 0);
  std::string prefix = fmt::format("{}{}-", NetnsBridge::kPrefix, crashed);
  ASSERT_NE(output_of("ip netns list").find(prefix), std::string::npos) << "the crashed run left nothing";

  std::vector<std::string> removed = NetnsBridge::cleanup_leftovers();
  EXPECT_EQ(
      std::count_if(removed.begin(), removed.end(), [&](const std::string& ns) { return ns.rfind(prefix, 0) == 0; }),
      3)  // the bridge's, redis's and w0's
      << fmt::format("{}", fmt::join(removed, " "));
  EXPECT_EQ(output_of("ip netns list").find(prefix), std::string::npos);
  EXPECT_TRUE(wait_for(2s, [&] { return !process_alive(inside); })) << "the crashed run's process still runs";
}

TEST(NetnsBridge, CleanupLeavesNamespacesItDidNotCreateWhateverTheirNames) {
  ASSERT_EQ(::geteuid(), 0u) << "netns_test needs root (CI runs as root)";
  // A user's own namespace, and one named as a dead run's would be: rlock created neither.
  std::vector<std::string> theirs{"rlock-vpn", fmt::format("{}4194303-0-w0", NetnsBridge::kPrefix)};
  std::vector<pid_t> inside;
  for (const std::string& ns : theirs) {
    ASSERT_TRUE(reap(spawn_child({"ip", "netns", "add", ns})).succeeded()) << ns;
    inside.push_back(spawn_child({"ip", "netns", "exec", ns, "sleep", "60"}));
  }
  std::vector<std::string> removed = NetnsBridge::cleanup_leftovers();
  { NetnsBridge lab({"w0"}); }  // a lab's start cleans up too
  std::string listed = output_of("ip netns list");
  for (std::size_t i = 0; i < theirs.size(); ++i) {
    EXPECT_EQ(std::count(removed.begin(), removed.end(), theirs[i]), 0) << theirs[i];
    EXPECT_NE(listed.find(theirs[i]), std::string::npos) << theirs[i] << " was removed";
    EXPECT_TRUE(process_alive(inside[i])) << "the process in " << theirs[i] << " was killed";
    kill_and_reap(inside[i]);
    reap(spawn_child({"ip", "netns", "del", theirs[i]}));
  }
}

TEST(NetnsBridge, WithoutRootOrNftItSaysSoInOneLine) {
  ASSERT_EQ(::geteuid(), 0u) << "netns_test needs root (CI runs as root)";
  auto message_of = [](const std::function<void()>& setup) {
    TempDir dir("rlock-netns-test");
    std::filesystem::path file = dir.path() / "message";
    reap(fork_child([&] {
      std::FILE* out = std::fopen(file.c_str(), "w");  // before setup() takes root away
      setup();
      try {
        NetnsBridge lab({"w0"});
      } catch (const Error& e) {
        std::fputs(e.what(), out);
      }
      std::fclose(out);
      return 0;
    }));
    return output_of("cat " + file.string());
  };
  EXPECT_EQ(message_of([] { (void)::setuid(65534); }).rfind("--netns needs root", 0), 0u);
  TempDir only_ip("rlock-netns-test");  // a PATH with ip and without nft
  std::string ip = output_of("command -v ip");
  std::filesystem::create_symlink(ip.substr(0, ip.find('\n')), only_ip.path() / "ip");
  std::string no_nft = message_of([&] { ::setenv("PATH", only_ip.path().c_str(), 1); });
  EXPECT_NE(no_nft.find("nftables"), std::string::npos) << no_nft;
  EXPECT_EQ(no_nft.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace rlock::host
