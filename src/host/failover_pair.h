// A Redis primary and its replica, started on this machine for one chaos trial, and the failover
// that lab 5 does by hand: the primary dies and the replica takes over, with or without the writes
// it had not yet received.
//
// The replica takes over the primary's address (as a managed Redis moves its endpoint), so
// clients that reconnect reach the new primary without asking a Sentinel. The pair owns both
// processes (LocalRedis). Not thread-safe.
#pragma once

#include <filesystem>

#include "host/local_redis.h"
#include "host/redis_server.h"
#include "rlock/lock_key.h"
#include "rlock/redis_address.h"

namespace rlock {

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

  // The replica stops receiving writes: what is written from now on is lost in the failover.
  void stop_replication();

  // The failover: SIGKILL the primary, promote the replica and move it to the primary's port.
  // Returns the lock's PTTL on the primary before and on the promoted replica after.
  CrashReport fail_over(const LockKey& key);

 private:
  LocalRedis primary_;
  LocalRedis replica_;
};

}  // namespace rlock
