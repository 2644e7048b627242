// `rlock chaos --netns`: a job's trials in network namespaces of their own (host/netns.h), where
// `partition` is a real one, nftables dropping the frames between a worker and Redis on a bridge,
// and the lock sees the kernel's own retransmissions and backoff rather than a proxy's buffer.
//
// A JobLab is one job process's lab: members `ctl` (the job's own connections), `w0`..`w3` (its
// workers) and `redis` (a Redis of the job's own, listening on its member address). PostgreSQL is
// reached through its Unix socket, which works across network namespaces. The campaign's checks
// (check_netns, netns_conninfo) run in its parent, before any job starts.
//
// A JobLab owns its namespaces and its Redis: destroyed, it kills the Redis and removes the
// namespaces. Built in the job's process with no other thread; its constructor moves that thread
// into `ctl`. Not thread-safe.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <string>

#include "chaos/campaign.h"
#include "chaos/chaos.h"
#include "host/netns.h"
#include "rlock/redis_address.h"

namespace rlock::chaos {

class JobLab {
 public:
  // Builds the lab, starts its Redis (logging into `logs`), enters `ctl` and waits for the Redis
  // to answer. Throws Error, leaving nothing behind, when one of them fails.
  explicit JobLab(const std::filesystem::path& logs);
  ~JobLab();
  JobLab(const JobLab&) = delete;
  JobLab& operator=(const JobLab&) = delete;

  RedisAddress redis() const;
  // For a forked worker's first step: moves it into `w<worker>`.
  void enter_worker(std::size_t worker) const;
  void cut_redis(std::size_t worker);
  void heal_redis(std::size_t worker);
  void heal_all();

 private:
  host::NetnsBridge lab_;
  pid_t redis_pid_ = -1;
};

// Throws UsageError, in one line, when the campaign cannot run under --netns: a fault other than
// none and partition, redlock, a protocol client, or a Redis that rlock did not start (not a
// process on this machine started from a config file).
void check_netns(const Campaign& campaign, const ChaosSetup& setup);
// `conninfo` rewritten to reach the same PostgreSQL through its Unix socket. Throws UsageError when
// the server has no socket on this machine.
std::string netns_conninfo(const std::string& conninfo);

}  // namespace rlock::chaos
