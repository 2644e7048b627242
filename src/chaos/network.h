// The network of a chaos trial whose fault needs one (partition, delayed-write, net-delay,
// conn-drop, conn-refused, lost-reply, lost-request, session-expiry, starved-renewal): a FaultProxy
// (host/fault_proxy.h) between each worker and each server it uses, Redis (one, or Redlock's three) and PostgreSQL, and
// the etcd or ZooKeeper a client locks on, each on a port the system picks. The workers are given the proxies'
// addresses; the nemesis commands the proxies, or asks Redis to close the connections they opened.
//
// Owns the proxies: destroyed, they close every connection. Built before the workers are forked:
// a forked worker inherits the proxies' sockets but not their threads, and never touches them.
// The commands are the proxies' own (thread-safe); jitter() is not (its generator).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "host/fault_proxy.h"
#include "rlock/redis_address.h"

namespace rlock::chaos {

class TrialNetwork {
 public:
  // Proxies for `workers` workers; `client_servers`: the HOST:PORT of the etcd or ZooKeeper their
  // clients lock on (of each member, for an etcd cluster of rlock's own), or none. Throws
  // UsageError when a server is not reached over TCP at one address (a Unix socket, a Sentinel,
  // several PostgreSQL hosts, a ZooKeeper connect string of several servers): there is nothing to
  // put a proxy on.
  TrialNetwork(std::size_t workers, const std::vector<RedisAddress>& redis, const std::string& conninfo,
               std::uint64_t seed, const std::vector<std::string>& client_servers = {});

  // The addresses worker `worker` is given: the proxies', in the order of the servers.
  std::vector<RedisAddress> redis_of(std::size_t worker) const;
  std::string conninfo_of(std::size_t worker) const;
  // The HOST:PORT of its etcd or ZooKeeper proxy (a member's each, on a cluster); none without a
  // client server.
  std::vector<std::string> client_servers_of(std::size_t worker) const;

  // partition, starved-renewal: every byte between the worker and Redis stays in the network (as
  // TCP keeps what a partition does not let through) until heal_redis().
  void cut_redis(std::size_t worker);
  void heal_redis(std::size_t worker);
  // delayed-write: what the worker sends to PostgreSQL stays in the network until deliver_writes().
  void hold_writes(std::size_t worker);
  void deliver_writes(std::size_t worker);
  // net-delay: every connection of worker i delayed by latency_ms[i] times a factor drawn anew from
  // 0.5 to 1.5 at each call (the jitter).
  void jitter(const std::vector<double>& latency_ms);

  // conn-drop: each Redis closes the worker's connections to it (CLIENT KILL ADDR, by the address
  // the proxy connected from); returns how many it closed.
  long long kill_redis_connections(std::size_t worker);
  // conn-drop: the worker's connections to its etcd (each member) or ZooKeeper reset (both ends, RST).
  void reset_client_server(std::size_t worker);
  // session-expiry: every byte between the worker and its etcd or ZooKeeper stays in the network,
  // nothing reset, until heal_client_server().
  void cut_client_server(std::size_t worker);
  void heal_client_server(std::size_t worker);

  // lost-reply: the reply to the worker's next request to the server its lock lives on (its etcd or
  // ZooKeeper, or else each Redis) dropped, its connections reset (FaultProxy::lose_next_reply);
  // keep_replies() disarms what has not struck; take_replies_lost() counts the strikes since it was
  // last called.
  void lose_next_reply(std::size_t worker, std::chrono::milliseconds settle);
  void keep_replies(std::size_t worker);
  std::uint64_t take_replies_lost(std::size_t worker);

  // lost-request: the worker's next request to the server its lock lives on dropped unsent, its
  // connections reset (FaultProxy::lose_next_request); keep_requests() disarms what has not struck;
  // take_requests_lost() counts the strikes since it was last called.
  void lose_next_request(std::size_t worker);
  void keep_requests(std::size_t worker);
  std::uint64_t take_requests_lost(std::size_t worker);

  // conn-refused: the worker's connections to the servers its lock lives on (its etcd or
  // ZooKeeper, or else each Redis) reset, and each new one reset at once, until called with false.
  void refuse_lock_servers(std::size_t worker, bool refused);

  // How many connections the proxies have accepted, all together.
  std::uint64_t accepted() const;

 private:
  struct Links {
    std::vector<std::unique_ptr<host::FaultProxy>> redis;
    std::unique_ptr<host::FaultProxy> postgres;
    std::vector<std::unique_ptr<host::FaultProxy>> client_server;  // a member's each; none without one
    std::uint64_t replies_lost_taken = 0;
    std::uint64_t requests_lost_taken = 0;
  };
  // The proxies between the worker and the servers its lock lives on.
  std::vector<host::FaultProxy*> lock_proxies(std::size_t worker) const;

  std::vector<Links> links_;
  std::vector<RedisAddress> redis_;
  std::string conninfo_;
  std::mt19937_64 rng_;
};

}  // namespace rlock::chaos
