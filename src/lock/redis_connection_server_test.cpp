// RedisConnection against a Redis of the test's own (port 6552, also on ::1 and a Unix socket), for
// what the shared test Redis cannot show without being changed: passwords and ACL users, database
// indexes, IPv6 and Unix socket addresses.
#include "rlock/redis_connection.h"

#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "host/local_redis.h"
#include "host/temp_dir.h"
#include "rlock/error.h"
#include "testing/test_env.h"

namespace rlock {
namespace {

using testing::error_message;

constexpr int kPort = 6552;  // a port of this test alone

class OwnRedisTest : public ::testing::Test {
 protected:
  // The server's address as `user` with `password` would give it.
  RedisAddress as(std::string user, std::string password) const {
    RedisAddress address = server_.address();
    address.user = std::move(user);
    address.password = std::move(password);
    return address;
  }
  RedisConnection& admin() { return server_.connection(); }

  host::TempDir dir_;
  std::string socket_ = (dir_.path() / "redis.sock").string();
  host::LocalRedis server_{kPort, dir_.path(), {"--bind", "127.0.0.1", "::1", "--unixsocket", socket_}};
};

TEST_F(OwnRedisTest, AWrongPasswordThrowsErrorWithoutShowingIt) {
  admin().checked({"CONFIG", "SET", "requirepass", "right"});
  std::string message = error_message<Error>([&] { RedisConnection redis(as("", "wrong")); });
  EXPECT_NE(message.find("refused the password"), std::string::npos) << message;
  EXPECT_NE(message.find(server_.address().display()), std::string::npos) << message;
  EXPECT_EQ(message.find("wrong"), std::string::npos) << message;
  RedisConnection redis(as("", "right"));
  EXPECT_EQ(redis.checked({"PING"}).text(), "PONG");
}

// Regression: a reconnect whose AUTH failed left the connection marked connected, so the next
// command ran on it as the default user.
TEST_F(OwnRedisTest, AReconnectWhoseAuthFailedIsNeverUsed) {
  admin().checked({"ACL", "SETUSER", "alice", "on", ">right", "~*", "+@all"});
  RedisConnection redis(as("alice", "right"));
  EXPECT_EQ(redis.checked({"ACL", "WHOAMI"}).text(), "alice");

  admin().checked({"ACL", "SETUSER", "alice", "resetpass", ">changed"});
  admin().checked({"CLIENT", "KILL", "USER", "alice"});
  EXPECT_THROW(redis.command({"PING"}), OutcomeUnknown) << "the connection was closed under it";
  for (int i = 0; i < 2; ++i) {
    std::string message = error_message<Error>([&] { redis.command({"SET", "written", "unauthenticated"}); });
    EXPECT_NE(message.find("refused the password"), std::string::npos) << "command " << i << ": " << message;
  }
  EXPECT_TRUE(admin().checked({"GET", "written"}).is_nil()) << "a command ran as the default user";
}

TEST_F(OwnRedisTest, ADatabaseOutOfRangeThrowsErrorNamingIt) {
  RedisAddress address = server_.address();
  address.db = 99;
  std::string message = error_message<Error>([&] { RedisConnection redis(address); });
  EXPECT_NE(message.find("database 99"), std::string::npos) << message;
  EXPECT_NE(message.find(server_.address().display()), std::string::npos) << message;
}

TEST_F(OwnRedisTest, ConnectsOverIpv6Loopback) {
  RedisConnection redis(RedisAddress::parse(fmt::format("redis://[::1]:{}/0", kPort)));
  EXPECT_EQ(redis.address().display(), fmt::format("[::1]:{}", kPort));
  redis.checked({"SET", "over", "ipv6"});
  EXPECT_EQ(admin().checked({"GET", "over"}).text(), "ipv6");
  EXPECT_NE(redis.checked({"CLIENT", "INFO"}).text().find(fmt::format("laddr=[::1]:{}", kPort)), std::string::npos);
}

TEST_F(OwnRedisTest, ConnectsOverAUnixSocketToItsDb) {
  RedisConnection redis(RedisAddress::parse(fmt::format("unix://{}?db=2", socket_)));
  EXPECT_EQ(redis.address().display(), socket_);
  redis.checked({"SET", "over", "unix"});
  RedisAddress db2 = server_.address();
  db2.db = 2;
  EXPECT_EQ(RedisConnection(db2).checked({"GET", "over"}).text(), "unix");
  EXPECT_TRUE(admin().checked({"GET", "over"}).is_nil()) << "not in db 0";
}

TEST_F(OwnRedisTest, AMissingSocketThrowsErrorNamingItsPath) {
  std::string missing = (dir_.path() / "missing.sock").string();
  std::string message = error_message<Error>([&] { RedisConnection redis(RedisAddress::parse("unix://" + missing)); });
  EXPECT_NE(message.find("cannot connect to Redis at " + missing + ": No such file or directory"), std::string::npos)
      << message;
}

}  // namespace
}  // namespace rlock
