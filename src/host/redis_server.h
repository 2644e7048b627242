// A Redis server running on this machine, as the host's faults see it: a process to kill, freeze,
// continue or start again the way it was started (RedisLaunch: its config file, port, data
// directory, log and daemon mode), so that it comes back where it was and nowhere else.
//
// The process is found through the server itself (INFO server: process_id, config_file), and only a
// server that rlock or its scripts started is one: a local process whose config file has the
// throwaway marker (throwaway_redis_conf.h). A Redis of the user's or of the system's (a
// distribution's service, started from /etc/redis/redis.conf) is refused, as is one not local.
// Thread-safe: no state beyond the values returned.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "rlock/lock_key.h"
#include "rlock/redis_address.h"
#include "rlock/redis_connection.h"

namespace rlock::host {

// How rlock starts a Redis of its own, the first time and after every crash: redis-server from its
// config file with the settings that file may lack (a LocalRedis's has only the throwaway ones).
struct RedisLaunch {
  std::string config_file;
  int port = 0;
  std::string dir;
  std::string logfile;
  bool daemonize = false;                 // the scripts' servers; a LocalRedis is its owner's child
  std::vector<std::string> extra_args{};  // such as --replicaof HOST PORT
};

// The one launcher: starts `launch`. Daemonized, it returns 0 once the forking parent is gone;
// otherwise the server is a child of this process in a group of its own (out of reach of a
// terminal's Ctrl-C), killed when this process ends, and its pid is returned.
pid_t launch_redis(const RedisLaunch& launch);
// The command line that launch_redis runs.
std::vector<std::string> launch_args(const RedisLaunch& launch);

struct RedisProcess {
  pid_t pid = 0;
  std::string config_file;
  RedisLaunch launch;  // as the server says it was started (CONFIG GET)
};

// Throws Error, in one line saying why, when the server's process is not on this machine or was not
// started by rlock or its scripts (no config file, or one without the marker).
RedisProcess local_redis_process(RedisConnection& redis);

// SIGKILL, then waits (bounded) until the process is gone. Throws Error when it does not go.
void kill_redis(const RedisProcess& process, const RedisAddress& address);

// Starts a killed daemonized server again with launch_redis(process.launch) and waits (bounded)
// until it answers. Throws Error, before starting anything, for one that ran as the child of the
// rlock process that started it (a LocalRedis): only its owner starts it again.
void start_redis(const RedisProcess& process, const RedisAddress& address);

// A watch over a crash of a daemonized server that rlock starts again: a shell of a process group
// of its own, whose stdin is a pipe this process holds. Told restarted() before it goes, it exits;
// gone without that (this process died mid-crash, by SIGKILL too, or the start failed), it starts
// the server as `launch` says. So no end of rlock leaves the server down. Not thread-safe.
class RestartGuard {
 public:
  // Throws Error when the shell cannot be started.
  explicit RestartGuard(const RedisLaunch& launch);
  ~RestartGuard();
  RestartGuard(const RestartGuard&) = delete;
  RestartGuard& operator=(const RestartGuard&) = delete;

  void restarted() { restarted_ = true; }

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
  bool restarted_ = false;
};

// What a crash of a Redis did to a lock, as the host saw it: the caller logs it (lab/host_events.h).
struct CrashReport {
  std::string server;                               // the server killed
  long long pttl_before = 0;                        // the lock's PTTL on it just before the kill
  std::chrono::system_clock::time_point killed_at;  // when the SIGKILL left
  // The server that answers in its place afterwards, when one does: the same one started again
  // (empty, without persistence), or its replica promoted.
  struct Successor {
    std::string server;
    bool promoted = false;
    long long pttl = 0;  // the lock's PTTL on it then
  };
  std::optional<Successor> successor;
};

// How a crash is carried out: `kill` takes the server down; `start_again`, when set, brings it
// back and returns a connection to it.
struct Crash {
  std::function<void()> kill;
  std::function<RedisConnection&()> start_again;
};

// The host's crash of the Redis behind `redis`: the lock's PTTL just before, the kill (stamped
// when it happened), and after a start again, the lock's PTTL then. `redis` is not used after the
// kill, which may destroy it.
CrashReport crash_server(RedisConnection& redis, const LockKey& key, const Crash& crash);

// The host's crash of the local Redis behind `redis`: the lock's PTTL just before, SIGKILL, and
// with `start_again`, a start as it was started (start_redis) and the lock's PTTL after it. While
// it is down, a guard of a process group of its own starts it should this process end first.
CrashReport crash_redis(RedisConnection& redis, const LockKey& key, bool start_again);

}  // namespace rlock::host
