#include "host/redis_server.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "rlock/error.h"
#include "host/process.h"
#include "rlock/redis_lock.h"

extern char** environ;

namespace rlock {
namespace {

using namespace std::chrono_literals;

bool is_redis_server(pid_t pid) { return proc_file(pid, "comm").starts_with("redis-server"); }

}  // namespace

RedisProcess local_redis_process(RedisConnection& redis) {
  RedisProcess process{static_cast<pid_t>(std::stol(redis.server_info("process_id"))),
                       redis.server_info("config_file")};
  if (!is_redis_server(process.pid)) {
    throw Error(fmt::format("Redis at {} is not a process on this machine (pid {} is not redis-server)",
                            redis.address().display(), process.pid));
  }
  return process;
}

void kill_redis(const RedisProcess& process, const RedisAddress& address) {
  if (::kill(process.pid, SIGKILL) != 0 && errno != ESRCH) {
    throw Error(fmt::format("cannot kill Redis at {} (pid {}): {}", address.display(), process.pid, std::strerror(errno)));
  }
  if (!wait_for(5s, [&] { return !process_alive(process.pid); })) {
    throw Error(fmt::format("Redis at {} (pid {}) did not die within 5 s", address.display(), process.pid));
  }
}

pid_t spawn_redis_server(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, "redis-server", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw Error(fmt::format("cannot run redis-server: {}", std::strerror(rc)));
  return pid;
}

void start_redis(const std::string& config_file, const RedisAddress& address) {
  if (config_file.empty()) {
    throw Error(fmt::format("Redis at {} was started without a config file: cannot start it again", address.display()));
  }
  pid_t child = spawn_redis_server({"redis-server", config_file});
  int status = 0;
  ::waitpid(child, &status, 0);  // with daemonize yes, the parent exits once the server forked
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
  Crash crash{[&] { kill_redis(process, address); }, nullptr};
  if (start_again) {
    crash.start_again = [&]() -> RedisConnection& {
      start_redis(process.config_file, address);
      redis.reconnect();
      return redis;
    };
  }
  return crash_server(redis, key, crash);
}

}  // namespace rlock
