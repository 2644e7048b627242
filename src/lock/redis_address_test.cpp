#include "rlock/redis_address.h"

#include <string>

#include <gtest/gtest.h>

#include "rlock/error.h"
#include "testing/test_env.h"

namespace rlock {
namespace {

using testing::error_message;

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

TEST(RedisAddress, ParsesAnIpv6LiteralInBrackets) {
  RedisAddress address = RedisAddress::parse("redis://[::1]:6391/2");
  EXPECT_EQ(address.host, "::1");
  EXPECT_EQ(address.port, 6391);
  EXPECT_EQ(address.db, 2);
  EXPECT_EQ(address.display(), "[::1]:6391");
  RedisAddress defaults = RedisAddress::parse("redis://u:pw@[fe80::1%25eth0]");
  EXPECT_EQ(defaults.host, "fe80::1%25eth0");
  EXPECT_EQ(defaults.port, 6379);
  EXPECT_EQ(defaults.password, "pw");
}

TEST(RedisAddress, RejectsMalformedIpv6) {
  for (const char* url :
       {"redis://::1:6379", "redis://[::1:6379", "redis://[::1]6379", "redis://[]:6379", "redis://[::1]:x"}) {
    EXPECT_THROW(RedisAddress::parse(url), UsageError) << url;
  }
  EXPECT_NE(error_message<UsageError>([] { RedisAddress::parse("redis://::1:6379"); }).find("[::1]"),
            std::string::npos);
}

TEST(RedisAddress, DecodesAPercentEncodedUserAndPassword) {
  RedisAddress address = RedisAddress::parse("redis://us%3Aer:p%40ss%2F%25@h/0");
  EXPECT_EQ(address.user, "us:er");
  EXPECT_EQ(address.password, "p@ss/%");
  EXPECT_EQ(address.host, "h");
  EXPECT_EQ(RedisAddress::parse("redis://user:p%40ss@host/0").password, "p@ss");
  // As urllib.parse.unquote: a % without two hex digits after it is kept.
  EXPECT_EQ(RedisAddress::parse("redis://:100%@h").password, "100%");
  EXPECT_EQ(RedisAddress::parse("redis://:%zz%4@h").password, "%zz%4");
}

TEST(RedisAddress, ParsesAUnixSocketWithItsDb) {
  RedisAddress address = RedisAddress::parse("unix:///run/redis/redis.sock?db=2");
  EXPECT_EQ(address.socket, "/run/redis/redis.sock");
  EXPECT_EQ(address.db, 2);
  EXPECT_EQ(address.display(), "/run/redis/redis.sock");
  RedisAddress with_password = RedisAddress::parse("unix://alice:p%40ss@/tmp/my%20redis.sock");
  EXPECT_EQ(with_password.user, "alice");
  EXPECT_EQ(with_password.password, "p@ss");
  EXPECT_EQ(with_password.socket, "/tmp/my redis.sock");
  EXPECT_EQ(with_password.db, 0);
  EXPECT_EQ(with_password.display().find("p@ss"), std::string::npos);
}

TEST(RedisAddress, RejectsAUnixUrlWithoutAPath) {
  for (const char* url : {"unix://", "unix:///", "unix://relative.sock", "unix://:pw@?db=1"}) {
    EXPECT_THROW(RedisAddress::parse(url), UsageError) << url;
  }
}

TEST(RedisAddress, QueryGivesDbPasswordAndUsernameAsRedisPyDoes) {
  RedisAddress address = RedisAddress::parse("redis://h:7000/1?db=3&password=p%26w&username=bob");
  EXPECT_EQ(address.db, 3) << "the query's db wins over the path's";
  EXPECT_EQ(address.password, "p&w");
  EXPECT_EQ(address.user, "bob");
  EXPECT_EQ(RedisAddress::parse("redis://:first@h?password=second").password, "first");
}

TEST(RedisAddress, RejectsUnknownOrBadQueryParameters) {
  for (const char* url : {"redis://h?timeout=5", "redis://h?db=x", "unix:///s.sock?db=-1", "redis://h?db"}) {
    EXPECT_THROW(RedisAddress::parse(url), UsageError) << url;
  }
  EXPECT_NE(error_message<UsageError>([] { RedisAddress::parse("redis://h?timeout=5"); }).find("timeout"),
            std::string::npos);
}

TEST(RedisAddress, RejectsOtherSchemes) {
  for (const char* url : {"http://h:6379", "rediss://h:6379", "h:6379", "", "REDIS://h"}) {
    EXPECT_THROW(RedisAddress::parse(url), UsageError) << url;
  }
}

TEST(RedisAddress, RejectsBadPorts) {
  for (const char* url : {"redis://h:0", "redis://h:65536", "redis://h:-1", "redis://h:abc",
                          "redis://h:", "redis://h:63 79", "redis://h:6379x"}) {
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

TEST(RedisAddress, UrlIsReadBackAsTheSameAddress) {
  for (const char* url : {"redis://127.0.0.1:6391/0", "redis://alice:p%40ss%3Aword@redis.local:7000/2",
                          "redis://:hunter2@[::1]:6391/3", "unix://u:pw@/tmp/redis.sock?db=2", "redis://h"}) {
    RedisAddress address = RedisAddress::parse(url);
    RedisAddress again = RedisAddress::parse(address.url());
    EXPECT_EQ(again.host, address.host) << url;
    EXPECT_EQ(again.port, address.port) << url;
    EXPECT_EQ(again.socket, address.socket) << url;
    EXPECT_EQ(again.user, address.user) << url;
    EXPECT_EQ(again.password, address.password) << url;
    EXPECT_EQ(again.db, address.db) << url;
  }
  EXPECT_EQ(RedisAddress::parse("redis://[::1]:6391/3").url(), "redis://[::1]:6391/3");
  EXPECT_EQ(RedisAddress::parse("redis://alice:p%40ss@h:1/0").url(), "redis://alice:p%40ss@h:1/0");
}

// Found by fuzz/redis_url.cpp: the path went into the URL raw, so a ? in it began the query.
TEST(RedisAddress, UrlOfASocketPathWithAQuestionMarkOrPercentReadsBackTheSamePath) {
  for (const char* url : {"unix:///run/a%3Fb.sock", "unix:///run/a%2541.sock", "unix:///run/a%26b%23c%20d.sock"}) {
    RedisAddress address = RedisAddress::parse(url);
    EXPECT_EQ(RedisAddress::parse(address.url()).socket, address.socket) << url;
  }
  EXPECT_EQ(RedisAddress::parse("unix:///run/a%3Fb.sock").url(), "unix:///run/a%3Fb.sock?db=0");
}

TEST(RedisAddress, ErrorsNeverShowThePassword) {
  for (const char* url : {"redis://:hunter2@h:99999", "redis://u:hunter2@h:6379/abc", "redis://hunter2@h:x",
                          "redis://u:hunter2@:6379", "http://u:hunter2@h", "redis://h?password=hunter2&db=x",
                          "unix://:hunter2@/s.sock?db=x", "redis://hunter2@[::1"}) {
    std::string message = error_message<UsageError>([&] { RedisAddress::parse(url); });
    EXPECT_FALSE(message.empty()) << url;
    EXPECT_EQ(message.find("hunter2"), std::string::npos) << message;
  }
}

TEST(BlankPasswords, BlanksEveryFormOfPasswordAndKeepsTheRest) {
  const std::pair<const char*, const char*> cases[] = {
      {"redis://secret@host:6379/0", "redis://***@host:6379/0"},
      {"redis://user:secret@host", "redis://user:***@host"},
      {"redis://:p@ss@host:6379", "redis://:***@host:6379"},
      {"unix://:secret@/run/redis.sock?db=1", "unix://:***@/run/redis.sock?db=1"},
      {"redis://host:6379/0?password=secret&db=2", "redis://host:6379/0?password=***&db=2"},
      {"redis://host/0?db=2&password=se@cret", "redis://host/0?db=2&password=***"},
      {"host=db port=5432 password=secret dbname=bank", "host=db port=5432 password=*** dbname=bank"},
      {"host=db password = 'a b\\' c' dbname=bank", "host=db password = *** dbname=bank"},
      {"postgresql://postgres:secret@db:5432/bank", "postgresql://postgres:***@db:5432/bank"},
      {"postgresql://postgres@db/bank?password=secret&sslmode=disable",
       "postgresql://postgres@db/bank?password=***&sslmode=disable"},
      {"PGPASSWORD=secret node client.js --password=secret", "PGPASSWORD=*** node client.js --password=***"},
      {"--redlock redis://a,redis://:secret@b,redis://u:p@ss@c", "--redlock redis://a,redis://:***@b,redis://u:***@c"},
      {"redis://127.0.0.1:6379/0 and postgresql://postgres@127.0.0.1/bank",
       "redis://127.0.0.1:6379/0 and postgresql://postgres@127.0.0.1/bank"},
      {"passwords, a word; redis://h?password=&db=1", "passwords, a word; redis://h?password=&db=1"},
  };
  for (const auto& [text, blanked] : cases) EXPECT_EQ(blank_passwords(text), blanked) << text;
}

TEST(RedisAddress, ErrorsSayWhatIsWrong) {
  EXPECT_NE(error_message<UsageError>([] { RedisAddress::parse("redis://h:99999"); }).find("port"), std::string::npos);
  EXPECT_NE(error_message<UsageError>([] { RedisAddress::parse("redis://h/x"); }).find("database"), std::string::npos);
  EXPECT_NE(error_message<UsageError>([] { RedisAddress::parse("http://h"); }).find("redis://"), std::string::npos);
}

// Found by fuzz/redis_url: the host "[" (from "[[]") gave a url() that parse() refused.
TEST(RedisAddress, AHostWithABracketIsRefusedSinceItsUrlWouldNotReadBack) {
  EXPECT_NE(error_message<UsageError>([] { RedisAddress::parse("redis://[[]:3"); }).find("[ or ]"), std::string::npos);
  EXPECT_NE(error_message<UsageError>([] { RedisAddress::parse("redis://a]b:3"); }).find("[ or ]"), std::string::npos);
  RedisAddress v6 = RedisAddress::parse("redis://[::1]:6379");
  EXPECT_EQ(RedisAddress::parse(v6.url()).host, "::1");
}

}  // namespace
}  // namespace rlock
