// Where a Redis server is, parsed from a URL in the forms redis-py accepts:
//   redis://[[user]:password@]host[:port][/db][?db=N&password=P&username=U]
//   unix://[[user]:password@]/path/to/redis.sock[?db=N&password=P&username=U]
// The host may be an IPv6 literal in brackets (redis://[::1]:6391/0). User, password, socket path
// and query values may be percent-encoded (p%40ss is p@ss). As in redis-py, the query's db wins
// over the path's, and the password before the @ over the query's. With a Sentinel, the address
// says which master to ask it for (the URL then gives the password and db only).
//
// display() is what error messages and logs show: host and port ([::1]:6391 for IPv6), or the
// socket's path; never the password. url() is the address as a URL that parse() reads back, the
// password included, for a client that is handed the server (never for a log).
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
  std::string socket;  // a Unix socket's path: when set, host and port are not used
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
  // redis://[USER:PASSWORD@]HOST:PORT/DB, or unix://[USER:PASSWORD@]PATH?db=DB; user and
  // password percent-encoded, an IPv6 host in brackets. Not the Sentinel: the server itself.
  std::string url() const;
};

// `text` (a URL of any scheme, a libpq conninfo, a command line, an environment variable's value)
// with every password in it replaced by ***, for what is shown or stored:
//   - a URL's user information, from :// to the last @ before the next space or the next URL (a
//     password may hold an unencoded @): a user before a colon stays (redis://alice:***@host); a
//     name alone is the password in a redis:// or unix:// URL (redis://***@host) and the user in
//     any other (postgresql://postgres@host stays);
//   - the value of a setting whose name ends in "password", in any case (password=, PGPASSWORD=,
//     --password=, a URL's ?password= or &password=, libpq's `password = 'a b'`): a quoted value to
//     its closing quote, one in a URL's query to the next & or #, any other to the next space.
std::string blank_passwords(std::string_view text);

}  // namespace rlock
