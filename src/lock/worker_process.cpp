#include "worker_process.h"

#include <fstream>
#include <iterator>
#include <string>

#include <fmt/format.h>

#include "error.h"

namespace rlock {
namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// True when `pid` is a live (not zombie) process whose arguments include "worker".
bool is_running_worker(pid_t pid) {
  std::string stat = read_all(fmt::format("/proc/{}/stat", pid));
  auto close = stat.rfind(')');  // the command name may itself hold spaces and parentheses
  if (close == std::string::npos || close + 2 >= stat.size() || stat[close + 2] == 'Z') return false;
  std::string cmdline = read_all(fmt::format("/proc/{}/cmdline", pid));
  return cmdline.find(std::string("\0worker\0", 8)) != std::string::npos;
}

}  // namespace

pid_t find_worker(const LabDir& dir, std::string_view name) {
  std::ifstream in(dir.pid_file(name));
  if (!in) throw Error(fmt::format("worker {} has not run in {} (no {})", name, dir.root().string(), dir.pid_file(name).filename().string()));
  long pid = 0;
  if (!(in >> pid) || pid <= 0) throw Error(fmt::format("{} does not hold a pid", dir.pid_file(name).string()));
  if (!is_running_worker(static_cast<pid_t>(pid))) {
    throw Error(fmt::format("worker {} is not running: pid {} from {} is gone", name, pid, dir.pid_file(name).filename().string()));
  }
  return static_cast<pid_t>(pid);
}

}  // namespace rlock
