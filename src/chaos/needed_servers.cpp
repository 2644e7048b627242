#include "chaos/needed_servers.h"

#include <algorithm>
#include <cstdlib>

#include "bank/account_store.h"
#include "host/server_probe.h"
#include "rlock/redis_connection.h"

namespace rlock::chaos {

void on_shared_redis(Job& job, const std::vector<std::string_view>& command) {
  needing("Redis", job.setup.redis.display(), [&] {
    try {
      job.redis.checked(command);
    } catch (const Error&) {
      job.redis.checked(command);
    }
  });
}

std::vector<ClientServer> client_servers(const std::vector<TrialSpec>& specs, Topology topology) {
  auto uses = [&](protocol::ServerKind kind) {
    return std::any_of(specs.begin(), specs.end(),
                       [&](const TrialSpec& s) { return s.client && s.client->server == kind; });
  };
  auto variable = [](protocol::ServerKind kind) { return std::string(protocol::address_variable(kind)); };
  std::vector<ClientServer> servers;
  if (uses(protocol::ServerKind::etcd) && topology == Topology::single)
    servers.push_back({"etcd", variable(protocol::ServerKind::etcd), "", ""});
  if (uses(protocol::ServerKind::zookeeper) && topology == Topology::single)
    servers.push_back({"ZooKeeper", variable(protocol::ServerKind::zookeeper), "ruok", "imok"});
  if (uses(protocol::ServerKind::hazelcast))
    servers.push_back({"Hazelcast", variable(protocol::ServerKind::hazelcast), "", ""});
  if (uses(protocol::ServerKind::postgres))
    servers.push_back({"PostgreSQL", variable(protocol::ServerKind::postgres), "", ""});
  return servers;
}

void check_client_server(const ClientServer& server, std::chrono::milliseconds timeout) {
  const char* address = std::getenv(server.variable.c_str());
  bool given = address != nullptr && *address != '\0';
  needing(server.what, given ? address : fmt::format("${} (not set)", server.variable), [&] {
    if (!given) throw Error(fmt::format("{} is not set", server.variable));
    std::string_view members(address);  // Hazelcast's are a list: HOST:PORT,HOST:PORT,...
    for (std::size_t from = 0; from <= members.size();) {
      std::size_t comma = std::min(members.find(',', from), members.size());
      host::probe_server(std::string(members.substr(from, comma - from)), server.say, server.expect, timeout);
      from = comma + 1;
    }
  });
}

std::string ServerWatch::operator()() {
  try {
    needing("PostgreSQL", postgres_at(setup_), [&] { bank::AccountStore{setup_.conninfo}; });
    if (redis_) needing("Redis", setup_.redis.display(), [&] { RedisConnection(setup_.redis).checked({"PING"}); });
    for (const ClientServer& server : clients_) check_client_server(server, std::chrono::seconds(1));
    failures_ = 0;
  } catch (const HarnessLost& e) {
    if (++failures_ >= 2) return e.what();
  }
  return "";
}

}  // namespace rlock::chaos
