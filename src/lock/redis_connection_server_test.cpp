// RedisConnection against a Redis of the test's own (port 6552), for what the shared test Redis
// cannot show without being changed: passwords and ACL users, database indexes.
#include "rlock/redis_connection.h"

#include <string>

#include <gtest/gtest.h>

#include "host/local_redis.h"
#include "host/temp_dir.h"
#include "rlock/error.h"
#include "testing/test_env.h"

namespace rlock {
namespace {

using test::error_message;

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

  TempDir dir_;
  LocalRedis server_{kPort, dir_.path()};
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

}  // namespace
}  // namespace rlock
