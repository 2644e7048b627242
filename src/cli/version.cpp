#include "cli/version.h"

#include <arpa/inet.h>
#include <hiredis/hiredis.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <pqxx/pqxx>
#include <pqxx/version.hxx>

#include <fmt/format.h>

#include "bank/account_store.h"
#include "cli/build_info.h"
#include "rlock/error.h"
#include "rlock/redis_connection.h"

namespace rlock::cli {
namespace {

using namespace std::chrono_literals;

constexpr auto kProbeTimeout = 1000ms;

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

std::string redis_line(const GlobalOptions& global) {
  std::string where = global.redis_url;
  try {
    RedisAddress address = RedisAddress::parse(global.redis_url);
    where = address.display();
    RedisConnection redis(address, RedisTimeouts{kProbeTimeout, kProbeTimeout});
    return fmt::format("redis       {} at {}", redis.server_info("redis_version"), where);
  } catch (const std::exception& e) {
    return fmt::format("redis       not found at {}: {}", where, first_line(e.what()));
  }
}

std::string postgres_line(const GlobalOptions& global) {
  std::string where = bank::describe_conninfo(global.db);
  setenv("PGCONNECT_TIMEOUT", "1", /*overwrite=*/1);  // libpq's connect timeout is in whole seconds
  try {
    pqxx::connection pq(global.db);
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

// etcd's version from its HTTP endpoint /version ({"etcdserver":"3.4.23",...}), or an empty string.
std::string etcd_version(const std::string& endpoint) {
  auto colon = endpoint.rfind(':');
  if (colon == std::string::npos) return "";
  int fd = connect_within(endpoint.substr(0, colon), endpoint.substr(colon + 1));
  if (fd < 0) return "";
  std::string request = fmt::format("GET /version HTTP/1.0\r\nHost: {}\r\n\r\n", endpoint);
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
  const std::string key = "\"etcdserver\":\"";
  auto at = reply.find(key);
  if (at == std::string::npos) return "";
  at += key.size();
  return reply.substr(at, reply.find('"', at) - at);
}

std::string etcd_line() {
  const char* given = std::getenv("ETCD_ENDPOINT");
  std::string endpoint = given != nullptr && *given != '\0' ? given : "127.0.0.1:2379";
  std::string version = etcd_version(endpoint);
  return version.empty() ? fmt::format("etcd        not found at {} (ETCD_ENDPOINT)", endpoint)
                         : fmt::format("etcd        {} at {}", version, endpoint);
}

}  // namespace

std::string version_text(const GlobalOptions& global) {
  return fmt::format("rlock {} (commit {})\nhiredis {}.{}.{}, libpqxx {}\n{}\n{}\n{}", kVersion, kCommit, HIREDIS_MAJOR,
                     HIREDIS_MINOR, HIREDIS_PATCH, PQXX_VERSION, redis_line(global), postgres_line(global),
                     etcd_line());
}

}  // namespace rlock::cli
