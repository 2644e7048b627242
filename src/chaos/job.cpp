#include "chaos/job.h"

#include <fmt/format.h>

#include "host/failover_pair.h"
#include "host/redis_server.h"
#include "rlock/error.h"

namespace rlock::chaos {

int failover_port_of(const ChaosSetup& setup, int job) { return setup.failover_port + 2 * job; }

// Job `job`'s three Redlock servers, logging into `dir`.
RedlockServers start_redlock_servers(const ChaosSetup& setup, int job, const std::filesystem::path& dir) {
  RedlockServers servers;
  for (int i = 0; i < 3; ++i)
    servers.push_back(std::make_unique<host::LocalRedis>(setup.redlock_port + 3 * job + i, dir));
  return servers;
}

// The job's Redlock servers (started for its first redlock trial), rid of `key`'s lock.
std::vector<RedisAddress> redlock_servers_for(Job& job, const LockKey& key) {
  if (job.redlock.empty()) {
    std::filesystem::path logs = job.setup.dir / "trials" / ".redlock-servers";
    std::filesystem::create_directories(logs);
    job.redlock = start_redlock_servers(job.setup, job.number, logs);
  }
  std::vector<RedisAddress> addresses;
  for (auto& server : job.redlock) {
    server->connection().checked({"DEL", key.lock});
    addresses.push_back(server->address());
  }
  return addresses;
}

int cluster_port_of(const ChaosSetup& setup, int job, protocol::ServerKind kind) {
  int first = setup.cluster_port + kClusterPortsAJob * job;
  return kind == protocol::ServerKind::zookeeper ? first + host::EtcdCluster::kPorts : first;
}

namespace {

// A new cluster for a lock on `kind`, job `job`'s, logging into `dir`.
std::unique_ptr<host::ServerCluster> start_cluster(const ChaosSetup& setup, int job, protocol::ServerKind kind,
                                                   const std::filesystem::path& dir) {
  int port = cluster_port_of(setup, job, kind);
  if (kind == protocol::ServerKind::zookeeper) return std::make_unique<host::ZooKeeperEnsemble>(port, dir);
  if (kind == protocol::ServerKind::etcd) return std::make_unique<host::EtcdCluster>(port, dir);
  throw Error(fmt::format("no cluster of {} servers", protocol::to_string(kind)));
}

}  // namespace

host::ServerCluster& cluster_for(Job& job, protocol::ServerKind kind) {
  std::unique_ptr<host::ServerCluster>& cluster =
      kind == protocol::ServerKind::zookeeper ? job.zookeeper_ensemble : job.etcd_cluster;
  if (!cluster) {
    std::filesystem::path logs = job.setup.dir / "trials" / ".clusters";
    std::filesystem::create_directories(logs);
    cluster = start_cluster(job.setup, job.number, kind, logs);
  } else if (!cluster->healthy_within(std::chrono::seconds(10))) {
    throw Error(fmt::format("the cluster of job {}: a member does not serve 10 s after its fault healed", job.number));
  }
  return *cluster;
}

void check_strikable(const RedisAddress& address, Fault fault) {
  try {
    RedisConnection redis(address);
    host::local_redis_process(redis);
    return;
  } catch (const UsageError&) {
    throw;
  } catch (const Error& e) {
    throw UsageError(fmt::format(
        "fault {} strikes only a Redis server that rlock or its scripts started, and {}: run the client-side faults "
        "(pause, slow, kill, partition, delayed-write, net-delay) against it, or this one against local servers "
        "(eval \"$(scripts/services.sh up)\", without --redis and --db)",
        to_string(fault), e.what()));
  }
}

void check_own_servers(const ChaosSetup& setup, int jobs, bool failover, bool redlock,
                       const std::vector<protocol::ServerKind>& clusters) {
  std::filesystem::path logs = setup.dir / "trials" / ".servers-check";
  std::filesystem::create_directories(logs);
  for (int job = 0; job < jobs; ++job) {
    if (failover) host::FailoverPair pair(failover_port_of(setup, job), logs);
    if (redlock) start_redlock_servers(setup, job, logs);
    for (protocol::ServerKind kind : clusters) {  // one cluster forms; the other jobs' ports are free
      if (job == 0) {
        start_cluster(setup, job, kind, logs);
      } else if (kind == protocol::ServerKind::zookeeper) {
        host::check_ports_free(host::ZooKeeperEnsemble::kKind, cluster_port_of(setup, job, kind),
                               host::ZooKeeperEnsemble::kPorts);
      } else {
        host::check_ports_free(host::EtcdCluster::kKind, cluster_port_of(setup, job, kind), host::EtcdCluster::kPorts);
      }
    }
  }
  std::filesystem::remove_all(logs);
}

}  // namespace rlock::chaos
