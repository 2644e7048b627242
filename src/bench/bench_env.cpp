// The environment rlock bench prints before its table: what the figures depend on.
#include <sys/resource.h>
#include <sys/utsname.h>

#include <fstream>
#include <thread>

#include <fmt/format.h>

#include "bench/bench.h"
#include "rlock/error.h"

#ifndef RLOCK_BUILD_TYPE
#define RLOCK_BUILD_TYPE "unknown"
#endif

namespace rlock::bench {
namespace {

// The value of the first "field : value" line of /proc/cpuinfo for `field`, or "?".
std::string cpuinfo(const std::string& field) {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with(field)) {
      std::size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  return "?";
}

// The first three fields of /proc/loadavg: the load over 1, 5 and 15 minutes.
std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  in >> one >> five >> fifteen;
  bool loaded = std::stod(one.empty() ? "0" : one) > std::thread::hardware_concurrency();
  return fmt::format("{} {} {}{}", one, five, fifteen,
                     loaded ? " (LOADED: more runnable than cores, figures are noisy)" : "");
}

}  // namespace

std::vector<std::pair<std::string, std::string>> bench_environment(RedisConnection& redis, bank::AccountStore& store) {
  utsname host{};
  ::uname(&host);
  return {
      {"build", fmt::format("{}, {}", RLOCK_BUILD_TYPE, __VERSION__)},
      {"redis", fmt::format("{} at {}", redis.server_info("redis_version"), redis.address().display())},
      {"postgresql", fmt::format("{} at {}", store.server_version(), store.address())},
      {"machine", fmt::format("{} {} {}, {} cores ({}), load {}", host.sysname, host.release, host.machine,
                              std::thread::hardware_concurrency(), cpuinfo("model name"), load_average())},
  };
}

void check_capacity(int clients, bank::AccountStore& store) {
  long free = store.free_connections();
  if (clients > free) {
    throw UsageError(fmt::format("--clients {}: PostgreSQL at {} accepts {} more connections now, one a client",
                                 clients, store.address(), free));
  }
  rlimit processes{};
  if (::getrlimit(RLIMIT_NPROC, &processes) == 0 && processes.rlim_cur != RLIM_INFINITY &&
      static_cast<rlim_t>(clients) >= processes.rlim_cur) {
    throw UsageError(
        fmt::format("--clients {}: this user may run {} processes at most (ulimit -u)", clients, processes.rlim_cur));
  }
}

}  // namespace rlock::bench
