// Processes on this machine, as /proc shows them. Thread-safe.
#pragma once

#include <sys/types.h>

#include <string>

namespace rlock {

// True while `pid` exists and is not a zombie (a process that exited but was not reaped yet).
bool process_alive(pid_t pid);

// The whole of /proc/PID/FILE ("cmdline", "comm", ...), empty when it cannot be read.
std::string proc_file(pid_t pid, const char* file);

}  // namespace rlock
