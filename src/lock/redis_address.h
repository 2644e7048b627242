// Where a Redis server is, parsed from a URL: redis://[[user]:password@]host[:port][/db].
//
// display() is what error messages and logs show: host and port, never the password.
// A plain value type; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace rlock {

struct RedisAddress {
  std::string host = "127.0.0.1";
  int port = 6379;
  std::string user;
  std::string password;
  int db = 0;

  // Throws rlock::UsageError naming what is wrong with the URL (without its password).
  static RedisAddress parse(std::string_view url);
  std::string display() const;
};

}  // namespace rlock
