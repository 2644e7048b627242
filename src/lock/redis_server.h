// A Redis server running on this machine, as the host's faults see it: a process to kill, freeze,
// continue or start again from its config file.
//
// The process is found through the server itself (INFO server: process_id, config_file), so it
// works for any local Redis started from a config file, and refuses one that is not local.
// Thread-safe: no state beyond the values returned.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>

#include "redis_address.h"
#include "redis_connection.h"

namespace rlock {

struct RedisProcess {
  pid_t pid = 0;
  std::string config_file;
};

// Throws Error when the server's process is not on this machine.
RedisProcess local_redis_process(RedisConnection& redis);

// SIGKILL, then waits (bounded) until the process is gone. Throws Error when it does not go.
void kill_redis(const RedisProcess& process, const RedisAddress& address);

// Starts redis-server with `config_file` (which daemonizes) and waits (bounded) until it answers.
void start_redis(const std::string& config_file, const RedisAddress& address);

}  // namespace rlock
