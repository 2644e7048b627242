#include "rlock/redis_address.h"

#include <string>

#include <gtest/gtest.h>

#include "rlock/error.h"
#include "testing/test_env.h"

namespace rlock {
namespace {

using test::error_message;

TEST(RedisAddress, DefaultsAreLocalhostPort6379Db0) {
  RedisAddress address;
  EXPECT_EQ(address.host, "127.0.0.1");
  EXPECT_EQ(address.port, 6379);
  EXPECT_EQ(address.db, 0);
  EXPECT_EQ(address.user, "");
  EXPECT_EQ(address.password, "");
}

TEST(RedisAddress, ParsesHostPortAndDb) {
  RedisAddress address = RedisAddress::parse("redis://127.0.0.1:6391/3");
  EXPECT_EQ(address.host, "127.0.0.1");
  EXPECT_EQ(address.port, 6391);
  EXPECT_EQ(address.db, 3);
  EXPECT_EQ(address.user, "");
  EXPECT_EQ(address.password, "");
}

TEST(RedisAddress, HostAloneTakesTheDefaults) {
  for (const char* url : {"redis://cache.example", "redis://cache.example/"}) {
    RedisAddress address = RedisAddress::parse(url);
    EXPECT_EQ(address.host, "cache.example") << url;
    EXPECT_EQ(address.port, 6379) << url;
    EXPECT_EQ(address.db, 0) << url;
  }
}

TEST(RedisAddress, ParsesUserAndPassword) {
  RedisAddress address = RedisAddress::parse("redis://alice:s3cret@redis.local:7000/2");
  EXPECT_EQ(address.user, "alice");
  EXPECT_EQ(address.password, "s3cret");
  EXPECT_EQ(address.host, "redis.local");
  EXPECT_EQ(address.port, 7000);
  EXPECT_EQ(address.db, 2);
}

TEST(RedisAddress, ParsesPasswordWithoutUser) {
  for (const char* url : {"redis://:s3cret@redis.local", "redis://s3cret@redis.local"}) {
    RedisAddress address = RedisAddress::parse(url);
    EXPECT_EQ(address.user, "") << url;
    EXPECT_EQ(address.password, "s3cret") << url;
    EXPECT_EQ(address.host, "redis.local") << url;
  }
}

TEST(RedisAddress, PasswordMayContainAtSignAndColon) {
  RedisAddress address = RedisAddress::parse("redis://bob:p@ss:word@h:1");
  EXPECT_EQ(address.user, "bob");
  EXPECT_EQ(address.password, "p@ss:word");
  EXPECT_EQ(address.host, "h");
  EXPECT_EQ(address.port, 1);
}

TEST(RedisAddress, RejectsOtherSchemes) {
  for (const char* url : {"http://h:6379", "rediss://h:6379", "h:6379", "", "REDIS://h"}) {
    EXPECT_THROW(RedisAddress::parse(url), UsageError) << url;
  }
}

TEST(RedisAddress, RejectsBadPorts) {
  for (const char* url : {"redis://h:0", "redis://h:65536", "redis://h:-1", "redis://h:abc", "redis://h:",
                          "redis://h:63 79", "redis://h:6379x"}) {
    EXPECT_THROW(RedisAddress::parse(url), UsageError) << url;
  }
  EXPECT_EQ(RedisAddress::parse("redis://h:65535").port, 65535);
}

TEST(RedisAddress, RejectsBadDbs) {
  for (const char* url : {"redis://h/x", "redis://h/-1", "redis://h:6379/1x", "redis://h/99999999999"}) {
    EXPECT_THROW(RedisAddress::parse(url), UsageError) << url;
  }
}

TEST(RedisAddress, RejectsAMissingHost) {
  for (const char* url : {"redis://", "redis://:6379", "redis:///0", "redis://:pw@:6379"}) {
    EXPECT_THROW(RedisAddress::parse(url), UsageError) << url;
  }
}

TEST(RedisAddress, DisplayIsHostAndPortWithoutThePassword) {
  RedisAddress address = RedisAddress::parse("redis://alice:hunter2@redis.local:7000/2");
  EXPECT_EQ(address.display(), "redis.local:7000");
  EXPECT_EQ(address.display().find("hunter2"), std::string::npos);
}

TEST(RedisAddress, ErrorsNeverShowThePassword) {
  for (const char* url : {"redis://:hunter2@h:99999", "redis://u:hunter2@h:6379/abc", "redis://hunter2@h:x",
                          "redis://u:hunter2@:6379", "http://u:hunter2@h"}) {
    std::string message = error_message<UsageError>([&] { RedisAddress::parse(url); });
    EXPECT_FALSE(message.empty()) << url;
    EXPECT_EQ(message.find("hunter2"), std::string::npos) << message;
  }
}

TEST(RedisAddress, ErrorsSayWhatIsWrong) {
  EXPECT_NE(error_message<UsageError>([] { RedisAddress::parse("redis://h:99999"); }).find("port"),
            std::string::npos);
  EXPECT_NE(error_message<UsageError>([] { RedisAddress::parse("redis://h/x"); }).find("database"),
            std::string::npos);
  EXPECT_NE(error_message<UsageError>([] { RedisAddress::parse("http://h"); }).find("redis://"),
            std::string::npos);
}

}  // namespace
}  // namespace rlock
