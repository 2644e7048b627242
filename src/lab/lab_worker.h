// The article's worker: acquire the account's lock, read the balance, (pause), write balance +
// amount, release; its strategy (strategy.h) says how it locks and writes: fenced, the write is
// the fenced UPDATE; fenced-retry, a rejected write starts again from the acquisition;
// check-before-write, the worker checks it still holds the lock before it pauses and writes.
//
// Every step is recorded in the run's log. Runs on the calling thread (plus the watchdog's thread
// when asked for); one worker per process, as in the article.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "lab/step_gate.h"
#include "lab/strategy.h"
#include "lab/worker_plan.h"
#include "rlock/error.h"
#include "rlock/redis_address.h"
#include "rlock/redis_lock.h"
#include "rlock/release_waiter.h"

namespace rlock::lab {

// Throws Error (connection, lock or database failures, also recorded in the log as an error
// event saying whether the amount was added, was not, or may have been) or WriteRejected.
void run_worker(const WorkerPlan& plan, const LabSetup& setup);

// run_worker's increment again and again on the same connections, recording nothing (no log, no
// markers, no pid file): what rlock bench times, so that its increment is the worker's own
// (acquire, read, write, release as plan.strategy says). plan.delay_seconds and pause_seconds are
// not used. increment() throws as run_worker does. Not thread-safe: one per process (the
// watchdog's thread aside).
class RepeatedWorker {
 public:
  RepeatedWorker(WorkerPlan plan, const RedisAddress& redis, const std::string& conninfo);
  ~RepeatedWorker();
  RepeatedWorker(const RepeatedWorker&) = delete;
  RepeatedWorker& operator=(const RepeatedWorker&) = delete;

  void increment();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Whether the strategy has a gated worker: the Redis-lock strategies of one server (ttl, watchdog,
// fenced, fenced-retry, fenced-claim).
bool gated(Strategy strategy);

// `rlock explore`'s worker: run_worker's increment with each step waiting for `gate` first
// (step_gate.h), on connections kept from one increment to the next. Each increment logs to the
// run started last in setup.dir (LabDir::start_new_run). A refused acquisition is asked again at
// the next acquire step, at most gate.bound() times; a fenced loop starts again at most as often;
// the watchdog extends only when the gate calls the extension it was given. The constructor throws
// UsageError for a strategy that is not gated(), Error when a server does not answer. Not
// thread-safe: one thread calls increment(), the gate's calls aside.
class GatedWorker {
 public:
  GatedWorker(WorkerPlan plan, LabSetup setup, StepGate& gate);
  ~GatedWorker();
  GatedWorker(const GatedWorker&) = delete;
  GatedWorker& operator=(const GatedWorker&) = delete;

  // True when the increment ended well; false when it failed, recorded as run_worker records it.
  bool increment();

  // Its connections to Redis connect again, answered, to whatever server the address now reaches
  // (the explorer's failover moved the primary under them). Only while the worker waits at its
  // gate or has not started. Throws Error when the server does not answer.
  void reconnect();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rlock::lab
