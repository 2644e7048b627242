#include "chaos/network.h"

#include <fmt/format.h>

#include "bank/account_store.h"
#include "rlock/error.h"

namespace rlock::chaos {

TrialNetwork::TrialNetwork(std::size_t workers, const std::vector<RedisAddress>& redis, const std::string& conninfo,
                           std::uint64_t seed)
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
  for (std::size_t i = 0; i < workers; ++i) {
    Links links;
    for (const RedisAddress& server : redis)
      links.redis.push_back(std::make_unique<host::FaultProxy>(server.host, server.port));
    links.postgres = std::make_unique<host::FaultProxy>(postgres->host, postgres->port);
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
