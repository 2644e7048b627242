#include "cli/version.h"

#include <arpa/inet.h>
#include <hiredis/hiredis.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <future>
#include <pqxx/pqxx>
#include <pqxx/version.hxx>

#include <fmt/format.h>

#include "bank/account_store.h"
#include "cli/build_info.h"
#include "cli/project_ports.h"
#include "protocol/client_catalogue.h"
#include "rlock/error.h"
#include "rlock/redis_connection.h"

namespace rlock::cli {
namespace {

using namespace std::chrono_literals;

constexpr auto kProbeTimeout = 1000ms;

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// $NAME when it is set and not empty, else `otherwise`.
std::string env_or(const char* name, const std::string& otherwise) {
  const char* given = std::getenv(name);
  return given != nullptr && *given != '\0' ? given : otherwise;
}

// The Redis named (--redis, REDIS_URL), else the project's own (scripts/services.sh's port).
std::string redis_to_probe(const GlobalOptions& global) {
  if (global.redis_named()) return global.redis_url;
  return fmt::format("redis://127.0.0.1:{}/0", env_or("RLOCK_REDIS_PORT", std::to_string(kProjectRedisPort)));
}

// The PostgreSQL named (--db, DATABASE_URL), else the project's own.
std::string postgres_to_probe(const GlobalOptions& global) {
  if (global.db_named()) return global.db;
  return fmt::format("postgresql://postgres@127.0.0.1:{}/bank",
                     env_or("RLOCK_PG_PORT", std::to_string(kProjectPostgresPort)));
}

std::string redis_line(const std::string& url) {
  std::string where = url;
  try {
    RedisAddress address = RedisAddress::parse(url);
    where = address.display();
    RedisConnection redis(address, RedisTimeouts{kProbeTimeout, kProbeTimeout});
    return fmt::format("redis       {} at {}", redis.server_info("redis_version"), where);
  } catch (const std::exception& e) {
    return fmt::format("redis       not found at {}: {}", where, first_line(e.what()));
  }
}

std::string postgres_line(const std::string& conninfo) {
  std::string where = bank::describe_conninfo(conninfo);
  try {
    pqxx::connection pq(conninfo);
    pqxx::nontransaction tx(pq);
    std::string version = tx.exec1("SHOW server_version")[0].as<std::string>();
    return fmt::format("postgresql  {} at {}", version.substr(0, version.find(' ')), where);
  } catch (const std::exception& e) {
    return fmt::format("postgresql  not found at {}: {}", where, first_line(e.what()));
  }
}

// A socket connected to host:port within the probe's timeout, or -1.
int connect_within(const std::string& host, const std::string& port) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0) return -1;
  int fd = socket(found->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  bool connected = fd >= 0 && (connect(fd, found->ai_addr, found->ai_addrlen) == 0 || errno == EINPROGRESS);
  freeaddrinfo(found);
  pollfd p{fd, POLLOUT, 0};
  int error = 0;
  socklen_t size = sizeof error;
  connected = connected && poll(&p, 1, kProbeTimeout.count()) == 1 &&
              getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) == 0 && error == 0;
  if (!connected && fd >= 0) close(fd);
  return connected ? fd : -1;
}

// What the server at `endpoint` (HOST:PORT) answers to `request` until it closes the connection,
// within about the probe's timeout; empty when it cannot be reached or says nothing.
std::string answer_of(const std::string& endpoint, const std::string& request) {
  auto colon = endpoint.rfind(':');
  if (colon == std::string::npos) return "";
  int fd = connect_within(endpoint.substr(0, colon), endpoint.substr(colon + 1));
  if (fd < 0) return "";
  std::string reply;
  if (send(fd, request.data(), request.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(request.size())) {
    auto deadline = std::chrono::steady_clock::now() + kProbeTimeout;
    char buffer[1024];
    pollfd p{fd, POLLIN, 0};
    while (reply.size() < 8192 && poll(&p, 1, kProbeTimeout.count()) == 1 &&
           std::chrono::steady_clock::now() < deadline) {
      ssize_t n = read(fd, buffer, sizeof buffer);
      if (n <= 0) break;
      reply.append(buffer, static_cast<std::size_t>(n));
    }
  }
  close(fd);
  return reply;
}

// The text after `key` in `reply` up to the first of `ends`, or "".
std::string field(const std::string& reply, const std::string& key, const char* ends) {
  auto at = reply.find(key);
  if (at == std::string::npos) return "";
  at += key.size();
  return reply.substr(at, reply.find_first_of(ends, at) - at);
}

// etcd's version from its HTTP endpoint /version ({"etcdserver":"3.4.23",...}).
std::string etcd_line() {
  std::string endpoint =
      env_or("ETCD_ENDPOINT", "127.0.0.1:" + env_or("RLOCK_ETCD_PORT", std::to_string(kProjectEtcdPort)));
  std::string reply = answer_of(endpoint, fmt::format("GET /version HTTP/1.0\r\nHost: {}\r\n\r\n", endpoint));
  std::string version = field(reply, "\"etcdserver\":\"", "\"");
  return version.empty() ? fmt::format("etcd        not found at {} (ETCD_ENDPOINT)", endpoint)
                         : fmt::format("etcd        {} at {}", version, endpoint);
}

// ZooKeeper's version from its four-letter word srvr ("Zookeeper version: 3.8.0-5a02a05e..., built on").
std::string zookeeper_line() {
  std::string endpoint =
      env_or("ZOOKEEPER_CONNECT", "127.0.0.1:" + env_or("RLOCK_ZOOKEEPER_PORT", std::to_string(kProjectZookeeperPort)));
  std::string version = field(answer_of(endpoint, "srvr"), "Zookeeper version: ", "-,\n");
  return version.empty() ? fmt::format("zookeeper   not found at {} (ZOOKEEPER_CONNECT)", endpoint)
                         : fmt::format("zookeeper   {} at {}", version, endpoint);
}

// The catalogue's adapters that are installed, by name (NAME@V for a version not the default), or
// why there are none.
std::string adapters_line() {
  try {
    protocol::Catalogue catalogue = protocol::read_catalogue(protocol::catalogue_dir());
    std::string installed;
    for (const protocol::CatalogueEntry& e : catalogue.entries) {
      if (e.installed()) installed += (installed.empty() ? "" : ", ") + e.spec.name;
      for (const protocol::CatalogueEntry& v : e.versions) {
        if (v.version_number != e.version_number && v.installed())
          installed += (installed.empty() ? "" : ", ") + v.spec.name;
      }
    }
    if (catalogue.entries.empty()) return fmt::format("adapters    none found in {}", catalogue.dir.string());
    return fmt::format("adapters    {} (rlock clients lists them all)",
                       installed.empty() ? "none installed" : installed);
  } catch (const std::exception& e) {
    return fmt::format("adapters    not read: {}", first_line(e.what()));
  }
}

}  // namespace

std::string version_text(const GlobalOptions& global) {
  setenv("PGCONNECT_TIMEOUT", "1", /*overwrite=*/1);  // libpq's connect timeout is in whole seconds
  // Side by side, so that servers that do not answer cost one timeout, not one each.
  auto redis = std::async(std::launch::async, redis_line, redis_to_probe(global));
  auto postgres = std::async(std::launch::async, postgres_line, postgres_to_probe(global));
  auto etcd = std::async(std::launch::async, etcd_line);
  auto zookeeper = std::async(std::launch::async, zookeeper_line);
  return fmt::format("rlock {} (commit {})\nhiredis {}.{}.{}, libpqxx {}\n{}\n{}\n{}\n{}\n{}", kVersion, kCommit,
                     HIREDIS_MAJOR, HIREDIS_MINOR, HIREDIS_PATCH, PQXX_VERSION, redis.get(), postgres.get(), etcd.get(),
                     zookeeper.get(), adapters_line());
}

}  // namespace rlock::cli
