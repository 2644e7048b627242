// The environment rlock bench prints before its table: what the figures depend on.
#include <sys/utsname.h>

#include <fstream>
#include <thread>

#include <fmt/format.h>

#include "bench/bench.h"

#ifndef RLOCK_BUILD_TYPE
#define RLOCK_BUILD_TYPE "unknown"
#endif

namespace rlock {
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
  return fmt::format("{} {} {}", one, five, fifteen);
}

}  // namespace

std::vector<std::pair<std::string, std::string>> bench_environment(RedisConnection& redis, AccountStore& store) {
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

}  // namespace rlock
