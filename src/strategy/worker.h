// The workers that run a strategy (incrementer.h) on the lab's account in PostgreSQL: the
// article's worker (run_worker: one increment, logged, as `rlock worker` and chaos's workers run
// it), the bench's (RepeatedWorker: increments recorded nowhere) and the explorer's (GatedWorker:
// each step at the explorer's gate). A worker runs on the calling thread (plus the watchdog's
// thread when its strategy has one); one worker per process, as in the article, but for the
// explorer's.
#pragma once

#include <memory>

#include "lab/run_log.h"
#include "lab/step_gate.h"
#include "lab/strategy.h"
#include "lab/worker_plan.h"
#include "rlock/redis_address.h"

namespace rlock::strategy {

// Writes the pid file, waits for the plan's start, increments once, every step recorded in the
// run's log. Throws Error (connection, lock or database failures, also recorded in the log as an
// error event saying whether the amount was added, was not, or may have been) or
// lab::WriteRejected.
void run_worker(const lab::WorkerPlan& plan, const lab::RunSetup& setup);

// run_worker's increment again and again on the same connections, recording nothing (no log, no
// markers, no pid file): what rlock bench times. plan.delay_seconds and work_seconds are not
// used. increment() throws as run_worker does. Not thread-safe.
class RepeatedWorker {
 public:
  RepeatedWorker(lab::WorkerPlan plan, const RedisAddress& redis, const std::string& conninfo);
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
bool gated(lab::Strategy strategy);

// `rlock explore`'s worker: run_worker's increment with each step waiting for `gate` first
// (gated_steps.h), on connections kept from one increment to the next. Each increment logs to the
// log it is given (the explorer's order's, kept in memory). The constructor throws UsageError for a
// strategy that is not gated(), Error when a server does not answer. Not thread-safe: one thread
// calls increment(), the gate's calls aside.
class GatedWorker {
 public:
  GatedWorker(lab::WorkerPlan plan, lab::RunSetup setup, lab::StepGate& gate);
  ~GatedWorker();
  GatedWorker(const GatedWorker&) = delete;
  GatedWorker& operator=(const GatedWorker&) = delete;

  // True when the increment ended well; false when it failed, recorded as run_worker records it.
  bool increment(const lab::RunLog& log);

  // Its connections to Redis connect again, answered, to whatever server the address now reaches
  // (the explorer's failover moved the primary under them). Only while the worker waits at its
  // gate or has not started. Throws Error when the server does not answer.
  void reconnect();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rlock::strategy
