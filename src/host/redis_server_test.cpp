#include "host/redis_server.h"

#include <signal.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "host/child.h"
#include "host/local_redis.h"
#include "host/process.h"
#include "host/temp_dir.h"
#include "host/throwaway_redis_conf.h"
#include "rlock/error.h"
#include "testing/test_env.h"

namespace rlock::host {
namespace {

using namespace std::chrono_literals;
using testing::error_message;

constexpr int kOursPort = 6452;  // ports of this test alone
constexpr int kForeignPort = 6453;

TEST(ThrowawayRedisConf, ItsFirstLineIsTheMarker) {
  EXPECT_TRUE(kThrowawayRedisConf.starts_with(std::string(kThrowawayRedisMarker) + "\n"));
}

TEST(LocalRedisProcess, FindsAServerRlockStarted) {
  TempDir dir;
  LocalRedis server(kOursPort, dir.path());
  RedisProcess process = local_redis_process(server.connection());
  EXPECT_TRUE(process_alive(process.pid));
  EXPECT_EQ(process.config_file, (std::filesystem::absolute(dir.path()) / "redis-6452.conf").string());
}

// A redis-server of someone else's on kForeignPort, started with `args`; killed when it goes.
class ForeignRedis {
 public:
  explicit ForeignRedis(std::vector<std::string> args) : pid_(spawn_child(args)) {
    RedisAddress address;
    address.port = kForeignPort;
    answers_ = wait_for(5s, [&] {
      try {
        connection_ = std::make_unique<RedisConnection>(address, RedisTimeouts{200ms, 2000ms});
        return true;
      } catch (const Error&) {
        return false;
      }
    });
  }
  ~ForeignRedis() { kill_and_reap(pid_); }
  bool answers() const { return answers_; }
  RedisConnection& connection() { return *connection_; }

 private:
  pid_t pid_;
  bool answers_ = false;
  std::unique_ptr<RedisConnection> connection_;
};

TEST(LocalRedisProcess, RefusesARedisStartedFromAConfigFileWithoutTheMarker) {
  TempDir dir;  // as a distribution's service is: a config file of its own
  std::filesystem::path conf = dir.path() / "redis.conf";
  std::ofstream(conf) << "bind 127.0.0.1\nport " << kForeignPort << "\nsave \"\"\nappendonly no\ndir "
                      << dir.path().string() << "\n";
  ForeignRedis server({"redis-server", conf.string()});
  ASSERT_TRUE(server.answers());
  std::string message = error_message<Error>([&] { local_redis_process(server.connection()); });
  EXPECT_NE(message.find("not started by rlock or its scripts"), std::string::npos) << message;
  EXPECT_NE(message.find(conf.string()), std::string::npos) << message;
}

TEST(LocalRedisProcess, RefusesARedisStartedWithoutAConfigFile) {
  TempDir dir;
  ForeignRedis server({"redis-server", "--port", std::to_string(kForeignPort), "--save", "", "--appendonly", "no",
                       "--dir", dir.path().string()});
  ASSERT_TRUE(server.answers());
  std::string message = error_message<Error>([&] { local_redis_process(server.connection()); });
  EXPECT_NE(message.find("without a config file"), std::string::npos) << message;
}

// A LocalRedis runs as its owner's child, not daemonized: a restart from elsewhere would bring it
// back in the foreground, so it is refused before the kill, and the server keeps answering.
TEST(CrashRedis, RefusesToRestartAServerItsOwnerRunsBeforeTheKill) {
  TempDir dir;
  LocalRedis server(kOursPort, dir.path());
  EXPECT_FALSE(local_redis_process(server.connection()).launch.daemonize);
  std::string message =
      error_message<Error>([&] { crash_redis(server.connection(), LockKey::for_account(1), /*start_again=*/true); });
  EXPECT_NE(message.find("only that process starts it again"), std::string::npos) << message;
  EXPECT_EQ(server.connection().checked({"PING"}).text(), "PONG");
}

// A daemonized throwaway Redis on kOursPort, as scripts/services.sh starts one: its launch.
RedisLaunch daemon_launch(const TempDir& dir) {
  std::filesystem::path conf = dir.path() / "redis.conf";
  std::ofstream(conf) << kThrowawayRedisConf;
  return RedisLaunch{conf.string(), kOursPort, dir.path().string(), (dir.path() / "redis.log").string(), true, {}};
}

bool answers(int port) {
  RedisAddress address;
  address.port = port;
  try {
    RedisConnection probe(address, RedisTimeouts{200ms, 200ms});
    return probe.checked({"PING"}).text() == "PONG";
  } catch (const Error&) {
    return false;
  }
}

// A process that dies (SIGKILL) between a crash and its restart leaves the guard to start the
// server; one that restarted it tells the guard, which starts nothing.
TEST(RestartGuard, StartsTheServerWhenItsHolderDiesMidCrashAndNothingOnceTold) {
  TempDir dir;
  RedisLaunch launch = daemon_launch(dir);
  launch_redis(launch);
  ASSERT_TRUE(wait_for(5s, [] { return answers(kOursPort); }));
  RedisAddress address;
  address.port = kOursPort;
  RedisConnection redis(address);
  RedisProcess process = local_redis_process(redis);
  pid_t holder = fork_child([&] {
    RestartGuard guard(launch);
    kill_redis(process, address);
    ::raise(SIGKILL);  // no destructor runs: the guard is never told
    return 0;
  });
  reap(holder);
  EXPECT_TRUE(wait_for(10s, [] { return answers(kOursPort); })) << "the guard did not start the server";

  process = local_redis_process(*std::make_unique<RedisConnection>(address));
  {
    RestartGuard guard(launch);
    kill_redis(process, address);
    start_redis(process, address);
    guard.restarted();
  }
  RedisConnection again(address);
  pid_t restarted = local_redis_process(again).pid;
  std::this_thread::sleep_for(500ms);
  EXPECT_EQ(local_redis_process(again).pid, restarted) << "a told guard started another server";
  kill_redis(local_redis_process(again), address);
}

}  // namespace
}  // namespace rlock::host
