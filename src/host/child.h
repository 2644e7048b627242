// Child processes of this one.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace rlock {

// Runs redis-server with `args` (argv[0] first) as a child that inherits no file of this process
// but stdin, stdout and stderr: a server that outlives rlock must not hold its sockets or, say,
// the lock file of a `flock` that started rlock. Returns its pid; throws Error when it cannot run.
pid_t spawn_redis_server(const std::vector<std::string>& args);

}  // namespace rlock
