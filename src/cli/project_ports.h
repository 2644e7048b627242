// The ports of the project's own servers, as scripts/services.sh starts them unless RLOCK_REDIS_PORT,
// RLOCK_PG_PORT, RLOCK_ETCD_PORT or RLOCK_ZOOKEEPER_PORT say otherwise (etcd's peer port is the next
// one). `rlock --version` probes them when no server is named; `rlock facts` prints them for the docs
// test. Constants only.
#pragma once

namespace rlock::cli {

inline constexpr int kProjectRedisPort = 6391;
inline constexpr int kProjectPostgresPort = 5441;
inline constexpr int kProjectEtcdPort = 2391;
inline constexpr int kProjectZookeeperPort = 2481;

}  // namespace rlock::cli
