#include "lab/worker_process.h"

#include <fstream>
#include <string>

#include <fmt/format.h>

#include "host/process.h"
#include "rlock/error.h"

namespace rlock::lab {
namespace {

// True when `pid` is a live process whose arguments include "worker".
bool is_running_worker(pid_t pid) {
  return host::process_alive(pid) &&
         host::proc_file(pid, "cmdline").find(std::string("\0worker\0", 8)) != std::string::npos;
}

}  // namespace

pid_t find_worker(const LogDir& dir, std::string_view name) {
  std::ifstream in(dir.pid_file(name));
  if (!in)
    throw Error(fmt::format("worker {} has not run in {} (no {})", name, dir.root().string(),
                            dir.pid_file(name).filename().string()));
  long pid = 0;
  if (!(in >> pid) || pid <= 0) throw Error(fmt::format("{} does not hold a pid", dir.pid_file(name).string()));
  if (!is_running_worker(static_cast<pid_t>(pid))) {
    throw Error(fmt::format("worker {} is not running: pid {} from {} is gone", name, pid,
                            dir.pid_file(name).filename().string()));
  }
  return static_cast<pid_t>(pid);
}

}  // namespace rlock::lab
