// Where a Redis server is, parsed from a URL: redis://[[user]:password@]host[:port][/db], or, with
// a Sentinel, which master to ask it for (the URL then gives the password and db only).
//
// display() is what error messages and logs show: host and port, never the password.
// A plain value type; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rlock {

struct SentinelTarget {
  std::string host;
  int port = 26379;
  std::string master;
};

struct RedisAddress {
  std::string host = "127.0.0.1";
  int port = 6379;
  std::string user;
  std::string password;
  int db = 0;
  std::optional<SentinelTarget> sentinel;

  // Throws rlock::UsageError naming what is wrong with the URL (without its password).
  static RedisAddress parse(std::string_view url);
  // Asks the Sentinel at `host_port` (HOST:PORT) for `master` instead of connecting to host:port.
  // Throws rlock::UsageError for a malformed HOST:PORT.
  void use_sentinel(std::string_view host_port, std::string master);
  std::string display() const;
};

}  // namespace rlock
