// Finding a running worker by the pid file it wrote in the data directory.
//
// A pid file outlives its worker, and the kernel reuses pids, so a pid counts only while its
// process is alive (not a zombie) and is an `rlock worker`. Thread-safe.
#pragma once

#include <sys/types.h>

#include <string_view>

#include "lab/log_dir.h"

namespace rlock::lab {

// The running worker's pid. Throws rlock::Error saying whether the worker never ran here or has
// exited since.
pid_t find_worker(const LogDir& dir, std::string_view name);

}  // namespace rlock::lab
