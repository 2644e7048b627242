#include "chaos/network.h"

#include <exception>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "bank/account_store.h"
#include "rlock/error.h"
#include "rlock/redis_connection.h"

namespace rlock::chaos {

namespace {

// HOST:PORT, one server: the etcd endpoint or ZooKeeper connect string a proxy can stand in for.
std::pair<std::string, int> one_server(const std::string& address) {
  std::size_t colon = address.rfind(':');
  int port = 0;
  bool one = address.find_first_of(",/") == std::string::npos && colon != std::string::npos && colon > 0;
  if (one) {
    try {
      port = std::stoi(address.substr(colon + 1));
    } catch (const std::exception&) {
      port = 0;
    }
  }
  if (port <= 0 || port > 65535) {
    throw UsageError(fmt::format(
        "the faults of etcd and ZooKeeper (conn-drop, lost-reply, session-expiry) need the clients' server at one "
        "HOST:PORT to put a proxy on; {} is not",
        address));
  }
  return {address.substr(0, colon), port};
}

}  // namespace

TrialNetwork::TrialNetwork(std::size_t workers, const std::vector<RedisAddress>& redis, const std::string& conninfo,
                           std::uint64_t seed, const std::vector<std::string>& client_servers)
    : redis_(redis), conninfo_(conninfo), rng_(seed) {
  for (const RedisAddress& server : redis) {
    if (!server.socket.empty() || server.sentinel) {
      throw UsageError(
          fmt::format("the network faults need Redis over TCP to put a proxy on; {} is not", server.display()));
    }
  }
  std::optional<bank::PgTcpAddress> postgres = bank::tcp_address_of(conninfo);
  if (!postgres) {
    throw UsageError(
        fmt::format("the network faults need PostgreSQL over TCP at one address to put a proxy on; {} is not",
                    bank::describe_conninfo(conninfo)));
  }
  std::vector<std::pair<std::string, int>> upstream;
  for (const std::string& server : client_servers) upstream.push_back(one_server(server));
  for (std::size_t i = 0; i < workers; ++i) {
    Links links;
    for (const RedisAddress& server : redis)
      links.redis.push_back(std::make_unique<host::FaultProxy>(server.host, server.port));
    links.postgres = std::make_unique<host::FaultProxy>(postgres->host, postgres->port);
    for (const auto& [host, port] : upstream)
      links.client_server.push_back(std::make_unique<host::FaultProxy>(host, port));
    links_.push_back(std::move(links));
  }
}

std::vector<RedisAddress> TrialNetwork::redis_of(std::size_t worker) const {
  std::vector<RedisAddress> addresses = redis_;
  for (std::size_t s = 0; s < addresses.size(); ++s) {
    addresses[s].host = "127.0.0.1";
    addresses[s].port = links_[worker].redis[s]->port();
  }
  return addresses;
}

std::string TrialNetwork::conninfo_of(std::size_t worker) const {
  return bank::conninfo_at(conninfo_, "127.0.0.1", links_[worker].postgres->port());
}

std::vector<std::string> TrialNetwork::client_servers_of(std::size_t worker) const {
  std::vector<std::string> addresses;
  for (const auto& proxy : links_[worker].client_server)
    addresses.push_back(fmt::format("127.0.0.1:{}", proxy->port()));
  return addresses;
}

long long TrialNetwork::kill_redis_connections(std::size_t worker) {
  long long killed = 0;
  for (std::size_t s = 0; s < redis_.size(); ++s) {
    std::vector<std::string> addresses = links_[worker].redis[s]->upstream_addresses();
    if (addresses.empty()) continue;
    RedisConnection server(redis_[s]);
    for (const std::string& address : addresses) {
      Reply reply = server.command({"CLIENT", "KILL", "ADDR", address});
      if (!reply.is_error()) killed += reply.integer();  // an error: it closed by itself meanwhile
    }
  }
  return killed;
}

void TrialNetwork::reset_client_server(std::size_t worker) {
  for (const auto& proxy : links_[worker].client_server) proxy->reset();
}

std::vector<host::FaultProxy*> TrialNetwork::lock_proxies(std::size_t worker) const {
  const Links& links = links_[worker];
  std::vector<host::FaultProxy*> proxies;
  for (const auto& proxy : links.client_server.empty() ? links.redis : links.client_server)
    proxies.push_back(proxy.get());
  return proxies;
}

void TrialNetwork::lose_next_reply(std::size_t worker, std::chrono::milliseconds settle) {
  for (host::FaultProxy* proxy : lock_proxies(worker)) proxy->lose_next_reply(settle);
}

void TrialNetwork::refuse_lock_servers(std::size_t worker, bool refused) {
  for (host::FaultProxy* proxy : lock_proxies(worker)) proxy->refuse(refused);
}

void TrialNetwork::keep_replies(std::size_t worker) {
  for (host::FaultProxy* proxy : lock_proxies(worker)) proxy->pass(host::Direction::to_client);
}

std::uint64_t TrialNetwork::take_replies_lost(std::size_t worker) {
  std::uint64_t lost = 0;
  for (const host::FaultProxy* proxy : lock_proxies(worker)) lost += proxy->replies_lost();
  return lost - std::exchange(links_[worker].replies_lost_taken, lost);
}

void TrialNetwork::lose_next_request(std::size_t worker) {
  for (host::FaultProxy* proxy : lock_proxies(worker)) proxy->lose_next_request();
}

void TrialNetwork::keep_requests(std::size_t worker) {
  for (host::FaultProxy* proxy : lock_proxies(worker)) proxy->pass(host::Direction::to_server);
}

std::uint64_t TrialNetwork::take_requests_lost(std::size_t worker) {
  std::uint64_t lost = 0;
  for (const host::FaultProxy* proxy : lock_proxies(worker)) lost += proxy->requests_lost();
  return lost - std::exchange(links_[worker].requests_lost_taken, lost);
}

void TrialNetwork::cut_client_server(std::size_t worker) {
  for (const auto& proxy : links_[worker].client_server) proxy->hold();
}

void TrialNetwork::heal_client_server(std::size_t worker) {
  for (const auto& proxy : links_[worker].client_server) proxy->pass();
}

std::uint64_t TrialNetwork::accepted() const {
  std::uint64_t total = 0;
  for (const Links& links : links_) {
    for (const auto& proxy : links.redis) total += proxy->accepted();
    total += links.postgres->accepted();
  }
  return total;
}

void TrialNetwork::cut_redis(std::size_t worker) {
  for (auto& proxy : links_[worker].redis) proxy->hold();
}

void TrialNetwork::heal_redis(std::size_t worker) {
  for (auto& proxy : links_[worker].redis) proxy->pass();
}

void TrialNetwork::hold_writes(std::size_t worker) { links_[worker].postgres->hold(host::Direction::to_server); }

void TrialNetwork::deliver_writes(std::size_t worker) { links_[worker].postgres->pass(host::Direction::to_server); }

void TrialNetwork::jitter(const std::vector<double>& latency_ms) {
  std::uniform_real_distribution<double> factor(0.5, 1.5);
  for (std::size_t i = 0; i < links_.size(); ++i) {
    auto delay = [&] { return std::chrono::milliseconds(static_cast<long>(latency_ms[i] * factor(rng_))); };
    for (auto& proxy : links_[i].redis) proxy->delay(delay());
    links_[i].postgres->delay(delay());
  }
}

}  // namespace rlock::chaos
