#include "host/redis_server.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "host/child.h"
#include "host/process.h"
#include "host/throwaway_redis_conf.h"
#include "rlock/error.h"
#include "rlock/redis_lock.h"

namespace rlock::host {
namespace {

using namespace std::chrono_literals;

bool is_redis_server(pid_t pid) { return proc_file(pid, "comm").starts_with("redis-server"); }

bool has_throwaway_marker(const std::string& config_file) {
  std::ifstream in(config_file);
  for (std::string line; std::getline(in, line);) {
    if (line == kThrowawayRedisMarker) return true;
  }
  return false;
}

// What the server says of how it was started.
RedisLaunch launch_of(RedisConnection& redis, const std::string& config_file) {
  auto setting = [&](std::string_view name) { return redis.checked({"CONFIG", "GET", name}).element(1).text(); };
  return RedisLaunch{config_file,        std::stoi(setting("port")),    setting("dir"),
                     setting("logfile"), setting("daemonize") == "yes", {}};
}

void check_restartable(const RedisProcess& process, const RedisAddress& address) {
  if (process.config_file.empty()) {
    throw Error(fmt::format("Redis at {} was started without a config file: cannot start it again", address.display()));
  }
  if (!process.launch.daemonize) {
    throw Error(fmt::format(
        "Redis at {} runs as a child of the rlock process that started it: only that process starts it again",
        address.display()));
  }
}

}  // namespace

std::vector<std::string> launch_args(const RedisLaunch& launch) {
  std::vector<std::string> args{
      "redis-server", launch.config_file, "--port",      std::to_string(launch.port),    "--dir", launch.dir,
      "--logfile",    launch.logfile,     "--daemonize", launch.daemonize ? "yes" : "no"};
  args.insert(args.end(), launch.extra_args.begin(), launch.extra_args.end());
  return args;
}

pid_t launch_redis(const RedisLaunch& launch) {
  std::vector<std::string> args = launch_args(launch);
  if (launch.daemonize) {
    reap(spawn_child(args));  // the parent exits once the server forked
    return 0;
  }
  return spawn_child(args, SpawnOptions{.own_group = true, .dies_with_parent = true});
}

RedisProcess local_redis_process(RedisConnection& redis) {
  RedisProcess process{
      static_cast<pid_t>(std::stol(redis.server_info("process_id"))), redis.server_info("config_file"), {}};
  if (!is_redis_server(process.pid)) {
    throw Error(fmt::format("Redis at {} is not a process on this machine (pid {} is not redis-server)",
                            redis.address().display(), process.pid));
  }
  if (process.config_file.empty()) {
    throw Error(fmt::format("Redis at {} was started without a config file, so not by rlock or its scripts",
                            redis.address().display()));
  }
  if (!has_throwaway_marker(process.config_file)) {
    throw Error(fmt::format("Redis at {} was not started by rlock or its scripts: its config file {} has no line '{}'",
                            redis.address().display(), process.config_file, kThrowawayRedisMarker));
  }
  process.launch = launch_of(redis, process.config_file);
  return process;
}

void kill_redis(const RedisProcess& process, const RedisAddress& address) {
  if (::kill(process.pid, SIGKILL) != 0 && errno != ESRCH) {
    throw Error(
        fmt::format("cannot kill Redis at {} (pid {}): {}", address.display(), process.pid, std::strerror(errno)));
  }
  if (!wait_for(5s, [&] { return !process_alive(process.pid); })) {
    throw Error(fmt::format("Redis at {} (pid {}) did not die within 5 s", address.display(), process.pid));
  }
}

void start_redis(const RedisProcess& process, const RedisAddress& address) {
  check_restartable(process, address);
  launch_redis(process.launch);
  bool answers = wait_for(10s, [&] {
    try {
      RedisConnection probe(address, RedisTimeouts{200ms, 200ms});
      return true;
    } catch (const Error&) {
      return false;
    }
  });
  if (!answers) throw Error(fmt::format("Redis at {} did not answer within 10 s of its start", address.display()));
}

RestartGuard::RestartGuard(const RedisLaunch& launch) {
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) throw Error(fmt::format("cannot make a pipe: {}", std::strerror(errno)));
  std::vector<std::string> args{"/bin/sh", "-c", "read -r word; [ \"$word\" = restarted ] || exec \"$@\"", "guard"};
  std::vector<std::string> start = launch_args(launch);
  args.insert(args.end(), start.begin(), start.end());
  try {
    pid_ = spawn_child(args, SpawnOptions{.stdin_stdout = ends[0], .own_group = true});
  } catch (...) {
    ::close(ends[0]);
    ::close(ends[1]);
    throw;
  }
  ::close(ends[0]);
  fd_ = ends[1];
}

RestartGuard::~RestartGuard() {
  if (restarted_) {
    constexpr std::string_view kWord = "restarted\n";
    [[maybe_unused]] ssize_t n = ::write(fd_, kWord.data(), kWord.size());
  }
  ::close(fd_);  // without the word: the guard starts the server
  reap(pid_);
}

CrashReport crash_server(RedisConnection& redis, const LockKey& key, const Crash& crash) {
  CrashReport report{redis.address().display(), RedisLock(redis, key).pttl(), std::chrono::system_clock::now(), {}};
  crash.kill();
  if (!crash.start_again) return report;
  RedisConnection& restarted = crash.start_again();
  report.successor = CrashReport::Successor{report.server, false, RedisLock(restarted, key).pttl()};
  return report;
}

CrashReport crash_redis(RedisConnection& redis, const LockKey& key, bool start_again) {
  RedisAddress address = redis.address();
  RedisProcess process = local_redis_process(redis);
  std::optional<RestartGuard> guard;
  if (start_again) {
    check_restartable(process, address);  // before the kill, not after it
    guard.emplace(process.launch);
  }
  Crash crash{[&] { kill_redis(process, address); }, nullptr};
  if (start_again) {
    crash.start_again = [&]() -> RedisConnection& {
      start_redis(process, address);
      guard->restarted();
      redis.reconnect();
      return redis;
    };
  }
  return crash_server(redis, key, crash);
}

}  // namespace rlock::host
