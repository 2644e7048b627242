// A Redis primary and its replica, started on this machine for one chaos trial, and the failover
// that lab 5 does by hand: the primary dies and the replica takes over, with or without the writes
// it had not yet received.
//
// The replica takes over the primary's address (as a managed Redis moves its endpoint), so
// clients that reconnect reach the new primary without asking a Sentinel. The pair owns both
// processes (LocalRedis) and the child that restores a held-back replication link. Not
// thread-safe; call from a process with no other threads (holding replication back forks).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>

#include "host/local_redis.h"
#include "host/redis_server.h"
#include "rlock/lock_key.h"
#include "rlock/redis_address.h"

namespace rlock::host {

class FailoverPair {
 public:
  // Starts a primary on `primary_port` and a replica of it on `primary_port + 1`, both on
  // 127.0.0.1 without persistence, logging into `dir`, and waits (bounded) until the replica is in
  // sync. Throws Error naming the port and the cause (a port already taken, no redis-server).
  FailoverPair(int primary_port, const std::filesystem::path& dir);
  ~FailoverPair();
  FailoverPair(const FailoverPair&) = delete;
  FailoverPair& operator=(const FailoverPair&) = delete;

  // Where clients connect: the primary's address, which the replica takes over in fail_over().
  const RedisAddress& address() const { return primary_.address(); }

  // The replica's own address, where it listens until fail_over() moves it to address().
  const RedisAddress& replica_address() const { return replica_.address(); }

  // The replica's own connection, on its own port until fail_over() and after it.
  RedisConnection& replica() { return replica_.connection(); }

  // The replica stops receiving writes: what is written from now on is lost in the failover.
  void stop_replication();

  // Replication held back: the replica's link is cut now and restored after `lag` (by a child
  // process), when the replica catches up; a failover before then loses what was written since.
  void hold_replication(std::chrono::duration<double> lag);

  // The failover: SIGKILL the primary (and the child that would restore the link), ask the
  // replica whether the lock had reached it, promote it and move it to the primary's port.
  // Returns the lock's PTTL on the primary before and on the promoted replica after.
  CrashReport fail_over(const LockKey& key);

  // The Redis at address() (the primary, or after fail_over the replica in its place) crashes and
  // starts again, empty, through the launcher that started it, on the same port. Returns the lock's
  // PTTL before and after.
  CrashReport restart(const LockKey& key);

  // After fail_over: whether the replica held the primary's lock (its value) when the primary
  // died; true when the primary held none. Empty before any failover.
  std::optional<bool> lock_reached_replica() const { return lock_reached_replica_; }

 private:
  void stop_holding();

  LocalRedis primary_;
  LocalRedis replica_;
  bool failed_over_ = false;
  pid_t restorer_ = 0;  // the child restoring the held-back link, until it is done
  std::optional<bool> lock_reached_replica_;
};

}  // namespace rlock::host
