#include "host/local_redis.h"

#include <algorithm>

#include <fmt/format.h>

#include "host/child.h"
#include "host/process.h"
#include "host/redis_server.h"
#include "host/server_log.h"
#include "host/throwaway_redis_conf.h"
#include "rlock/error.h"
#include "util/whole_file.h"

namespace rlock::host {
namespace {

using namespace std::chrono_literals;

}  // namespace

LocalRedis::LocalRedis(int port, const std::filesystem::path& dir, std::vector<std::string> extra_args) {
  std::filesystem::path absolute = std::filesystem::absolute(dir);  // redis-server changes into it
  launch_ = RedisLaunch{(absolute / fmt::format("redis-{}.conf", port)).string(),
                        port,
                        absolute.string(),
                        (absolute / fmt::format("redis-{}.log", port)).string(),
                        /*daemonize=*/false,
                        std::move(extra_args)};
  address_.port = port;
  start();
}

LocalRedis::~LocalRedis() { kill(); }

void LocalRedis::start() {
  util::write_whole_file(launch_.config_file, kThrowawayRedisConf);
  pid_ = launch_redis(launch_);
  bool exited = false;
  bool answers = wait_for(5s, [&] {
    if (try_reap(pid_)) exited = true;
    if (exited) return true;
    try {
      connection_ = std::make_unique<RedisConnection>(address_, RedisTimeouts{200ms, 2000ms});
      return true;
    } catch (const Error&) {
      return false;
    }
  });
  if (exited || !answers) {
    if (exited) pid_ = 0;
    kill();
    throw Error(
        fmt::format("redis-server on {} did not start: {}", address_.display(), last_log_line(launch_.logfile)));
  }
  // A server of someone else's on this port would answer too.
  if (std::string owner = connection_->server_info("process_id"); std::stol(owner) != pid_) {
    kill();
    throw Error(fmt::format("redis-server on {} did not start: the port is taken by another Redis (pid {})",
                            address_.display(), owner));
  }
}

void LocalRedis::kill() {
  connection_.reset();
  if (pid_ == 0) return;
  kill_and_reap(pid_);
  pid_ = 0;
}

void LocalRedis::restart() {
  kill();
  start();
}

void LocalRedis::promote_to(int port) {
  connection_->checked({"REPLICAOF", "NO", "ONE"});
  connection_->checked({"CONFIG", "SET", "port", std::to_string(port)});
  address_.port = port;
  launch_.port = port;
  std::vector<std::string>& args = launch_.extra_args;
  if (auto replicaof = std::find(args.begin(), args.end(), "--replicaof"); replicaof != args.end()) {
    args.erase(replicaof, replicaof + std::min<std::ptrdiff_t>(3, args.end() - replicaof));
  }
  connection_ = std::make_unique<RedisConnection>(address_, RedisTimeouts{200ms, 2000ms});
}

CrashReport crash_and_restart(LocalRedis& server, const LockKey& key) {
  return crash_server(server.connection(), key,
                      {[&] { server.kill(); },
                       [&]() -> RedisConnection& {
                         server.restart();
                         return server.connection();
                       }});
}

}  // namespace rlock::host
