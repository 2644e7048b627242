// What one trial of a job uses, gathered in one place instead of handed down piece by piece: its
// spec and schedule, its job, its directory and account, its lock's key, the servers its lock lives
// on (the job's Redlock servers or cluster, or a failover pair or a Redis of its own that its fault
// set up),
// the proxies its fault goes through, and its run's log once its clock started. run_trial
// (trial.h) builds it; the trial loop (trial_loop.h), the workers and the fault read it.
//
// Owns the trial's own servers and proxies; belongs to the job's process; not thread-safe.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "chaos/chaos.h"
#include "chaos/job.h"
#include "chaos/network.h"
#include "chaos/schedule.h"
#include "host/failover_pair.h"
#include "host/local_redis.h"
#include "lab/log_dir.h"
#include "lab/run_log.h"
#include "rlock/lock_key.h"
#include "rlock/redis_address.h"

namespace rlock::chaos {

struct TrialContext {
  const TrialSpec& spec;
  const Schedule& schedule;
  Job& job;
  const lab::LogDir& dir;
  long account;
  LockKey key;
  std::vector<RedisAddress> redlock{};       // the job's Redlock servers, when the lock lives on three
  std::optional<host::FailoverPair> pair{};  // failover of one Redis: the trial's primary and replica
  std::optional<host::LocalRedis> own{};     // a stall of one Redis: the trial's own server
  host::ServerCluster* cluster = nullptr;    // the job's, of the client's server, under Topology::cluster
  std::unique_ptr<TrialNetwork> network{};   // the proxies, when the fault goes through them
  std::optional<lab::RunLog> log{};          // the run's log, once its clock started

  const ChaosSetup& setup() const { return job.setup; }
  // The Redis a lock of one server lives on: the pair's primary, the trial's own, or the job's.
  RedisAddress redis() const { return pair ? pair->address() : own ? own->address() : job.setup.redis; }
  // The servers the lock lives on: Redlock's three, or that one.
  std::vector<RedisAddress> servers() const { return redlock.empty() ? std::vector<RedisAddress>{redis()} : redlock; }
  const lab::RunLog& run_log() const { return *log; }
};

}  // namespace rlock::chaos
