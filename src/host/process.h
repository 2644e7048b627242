// Processes on this machine, as /proc shows them. Thread-safe.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>

namespace rlock::host {

// True while `pid` exists and is not a zombie (a process that exited but was not reaped yet).
bool process_alive(pid_t pid);

// The whole of /proc/PID/FILE ("cmdline", "comm", ...), empty when it cannot be read.
std::string proc_file(pid_t pid, const char* file);

// The binary this process runs, as a path that execs that very file while this process lives
// (/proc/PID/exe), even after a rebuild put another file where it was started from.
std::string own_binary();

// Polls `done` every 20 ms for at most `limit`; true as soon as it is.
bool wait_for(std::chrono::milliseconds limit, const std::function<bool()>& done);

}  // namespace rlock::host
