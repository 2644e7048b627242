// A job of a chaos campaign: one process that runs every jobs-th trial, one after the other, and
// what it holds for them (its Redis and PostgreSQL connections, and the servers of its own: a
// failover trial's primary and replica, Redlock's three servers). Jobs run side by side, each on
// ports of its own, so their servers never meet.
//
// A Job belongs to its process; not thread-safe. The checks below run in the campaign's process,
// before any job starts.
#pragma once

#include <filesystem>
#include <memory>
#include <vector>

#include "bank/account_store.h"
#include "chaos/chaos.h"
#include "host/etcd_cluster.h"
#include "host/local_redis.h"
#include "host/zookeeper_ensemble.h"
#include "rlock/lock_key.h"
#include "rlock/redis_address.h"
#include "rlock/redis_connection.h"

namespace rlock::chaos {

class JobLab;

// Job `job`'s failover port: its primary listens there and its replica on the next port.
int failover_port_of(const ChaosSetup& setup, int job);
// Job `job`'s first cluster port for a lock on `kind` (etcd or zookeeper): its etcd cluster's six
// ports from cluster_port + 15j, its ZooKeeper ensemble's nine after them.
inline constexpr int kClusterPortsAJob = host::EtcdCluster::kPorts + host::ZooKeeperEnsemble::kPorts;
int cluster_port_of(const ChaosSetup& setup, int job, protocol::ServerKind kind);

using RedlockServers = std::vector<std::unique_ptr<host::LocalRedis>>;

// Job `job`'s three Redlock servers, logging into `dir`.
RedlockServers start_redlock_servers(const ChaosSetup& setup, int job, const std::filesystem::path& dir);

// What a job process holds for its trials, one after the other.
struct Job {
  int number;
  const ChaosSetup& setup;
  RedisConnection redis;
  bank::AccountStore store;
  RedlockServers redlock;  // started for the job's first redlock trial
  JobLab* lab = nullptr;   // under --netns: the job's namespaces and Redis (netns_job.h)
  // Under Topology::cluster: each started for the job's first trial of a client on its server.
  std::unique_ptr<host::ServerCluster> etcd_cluster{}, zookeeper_ensemble{};
};

// The job's Redlock servers (started for its first redlock trial), rid of `key`'s lock.
std::vector<RedisAddress> redlock_servers_for(Job& job, const LockKey& key);

// The job's etcd cluster or ZooKeeper ensemble, for a lock on `kind`, started for its first trial
// and serving: a member a fault paused or killed is running again.
host::ServerCluster& cluster_for(Job& job, protocol::ServerKind kind);

// A fault that strikes a server (FaultModel::strikes_server: redis-restart crashes the shared Redis; failover
// and redis-stall run on servers of the job's own, judging rlock's Redis rather than the user's)
// needs the shared Redis to be one that rlock or its scripts started (local_redis_process: a process
// on this machine whose config file has rlock's marker, as scripts/services.sh writes it), never the
// user's or the system's. Throws UsageError, in one line, when it is not.
void check_strikable(const RedisAddress& redis, Fault fault);
// Starts and stops the servers of their own that `jobs` jobs will run (a failover's primary and
// replica, Redlock's three, the first job's cluster for each server kind of `clusters`, the other
// jobs' clusters' ports checked free): throws Error when one cannot start (a port taken, no
// redis-server, a member that did not form), before any trial runs.
void check_own_servers(const ChaosSetup& setup, int jobs, bool failover, bool redlock,
                       const std::vector<protocol::ServerKind>& clusters = {});

}  // namespace rlock::chaos
