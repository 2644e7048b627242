// The nemesis: each operation of operation.h carried out in one place, and recorded in the run log
// as the host's event with the operation's name in its "op" field. The runner that schedules the
// operations (a chaos fault's strike and heal, an explorer's move) says what they act on (Targets):
// how a worker is sent a signal (a forked process, a protocol client's group, a gated worker held
// at its gate), how its connections to Redis are cut and healed, which Redis the lock lives on, and
// the etcd cluster whose members it pauses.
//
// Not thread-safe: an operation runs on its runner's thread.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "host/failover_pair.h"
#include "host/local_redis.h"
#include "host/server_cluster.h"
#include "lab/run_log.h"
#include "nemesis/operation.h"
#include "rlock/lock_key.h"
#include "rlock/redis_connection.h"

namespace rlock::nemesis {

struct Targets {
  const lab::RunLog* log = nullptr;
  LockKey key;
  std::vector<std::string> workers{};  // their names, as the worker operations name them
  // Sends signal `number` to the worker; false when it has already ended (nothing is recorded).
  std::function<bool(std::size_t worker, int number)> signal{};
  // Cuts (true) or heals (false) the worker's connections to Redis.
  std::function<void(std::size_t worker, bool cut)> cut{};
  RedisConnection* redis = nullptr;        // the lock's Redis: expire; restart when nothing below is set
  host::FailoverPair* pair = nullptr;      // failover; restart when set
  host::LocalRedis* own = nullptr;         // a Redis of the runner's own: restart, stall
  host::ServerCluster* cluster = nullptr;  // the etcd cluster or ZooKeeper ensemble: its members' operations
};

// Carries `op` out on `targets`. Throws Error when `targets` lacks what it acts on (naming it), or
// when the host fails (host/redis_server.h).
void apply(const Operation& op, const Targets& targets);

}  // namespace rlock::nemesis
