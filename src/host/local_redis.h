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

#include "host/redis_server.h"
#include "rlock/lock_key.h"
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
  // A crash and a start through the same launcher (launch_redis), on its port, with its directory
  // and log, as this process's child: every key is gone.
  void restart();
  // A replica promoted in place of a primary that died: it stops replicating and serves `port`,
  // where restart() starts it again, a primary.
  void promote_to(int port);

  const RedisAddress& address() const { return address_; }
  pid_t pid() const { return pid_; }  // 0 once killed
  RedisConnection& connection() { return *connection_; }

 private:
  void start();

  RedisAddress address_;
  RedisLaunch launch_;
  pid_t pid_ = 0;
  std::unique_ptr<RedisConnection> connection_;
};

// The host's crash of `server` and its restart(): the lock's PTTL before and after (crash_server).
CrashReport crash_and_restart(LocalRedis& server, const LockKey& key);

}  // namespace rlock::host
