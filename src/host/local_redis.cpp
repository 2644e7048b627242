#include "host/local_redis.h"

#include <fstream>

#include <fmt/format.h>

#include "host/child.h"
#include "host/process.h"
#include "host/redis_server.h"
#include "host/throwaway_redis_conf.h"
#include "rlock/error.h"

namespace rlock::host {
namespace {

using namespace std::chrono_literals;

// The last line redis-server wrote to its log: why it did not start, usually.
std::string last_line(const std::filesystem::path& log) {
  std::ifstream in(log);
  std::string line, last;
  while (std::getline(in, line)) {
    if (!line.empty()) last = line;
  }
  return last.empty() ? "no log" : last;
}

}  // namespace

LocalRedis::LocalRedis(int port, const std::filesystem::path& dir, std::vector<std::string> extra_args)
    : dir_(std::filesystem::absolute(dir)),  // redis-server changes into it
      extra_args_(std::move(extra_args)) {
  address_.port = port;
  start();
}

LocalRedis::~LocalRedis() { kill(); }

void LocalRedis::start() {
  std::filesystem::path log = dir_ / fmt::format("redis-{}.log", address_.port);
  std::filesystem::path conf = dir_ / fmt::format("redis-{}.conf", address_.port);
  if (!(std::ofstream(conf) << kThrowawayRedisConf)) throw Error(fmt::format("cannot write {}", conf.string()));
  std::vector<std::string> args{"redis-server", conf.string(), "--port",    std::to_string(address_.port),
                                "--dir",        dir_.string(), "--logfile", log.string()};
  args.insert(args.end(), extra_args_.begin(), extra_args_.end());
  // In a group of its own, out of reach of a terminal's Ctrl-C (its owner stops it), and gone with its owner.
  pid_ = spawn_child(args, SpawnOptions{.own_group = true, .dies_with_parent = true});
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
    throw Error(fmt::format("redis-server on {} did not start: {}", address_.display(), last_line(log)));
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

}  // namespace rlock::host
