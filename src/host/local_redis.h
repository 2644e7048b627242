// A redis-server process of rlock's own on 127.0.0.1, a throwaway one (throwaway_redis_conf.h: no
// persistence), for the chaos trials that need servers of their own (a failover's primary and
// replica, Redlock's independent servers).
//
// Owns the process: started and answering once constructed, killed and reaped when destroyed, and
// killed when the process that started it ends, however it ends.
// Holds one connection to it. Not thread-safe.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "rlock/redis_address.h"
#include "rlock/redis_connection.h"

namespace rlock::host {

class LocalRedis {
 public:
  // Starts redis-server on `port` from dir/redis-PORT.conf (the throwaway settings), logging to
  // dir/redis-PORT.log, with `extra_args` (such as --replicaof HOST PORT), and waits (bounded)
  // until it answers. Throws Error naming the address and the cause: the port taken by another
  // server, no redis-server, its log's last line.
  LocalRedis(int port, const std::filesystem::path& dir, std::vector<std::string> extra_args = {});
  ~LocalRedis();
  LocalRedis(const LocalRedis&) = delete;
  LocalRedis& operator=(const LocalRedis&) = delete;

  // SIGKILL, then reap; nothing when already done.
  void kill();
  // A crash and a start with the same arguments: every key is gone.
  void restart();

  const RedisAddress& address() const { return address_; }
  RedisConnection& connection() { return *connection_; }

 private:
  void start();

  RedisAddress address_;
  std::filesystem::path dir_;
  std::vector<std::string> extra_args_;
  pid_t pid_ = 0;
  std::unique_ptr<RedisConnection> connection_;
};

}  // namespace rlock::host
