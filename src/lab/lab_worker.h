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

#include "lab/lab_dir.h"
#include "lab/messages.h"
#include "lab/step_gate.h"
#include "lab/strategy.h"
#include "rlock/error.h"
#include "rlock/redis_address.h"
#include "rlock/redis_lock.h"
#include "rlock/release_waiter.h"

namespace rlock::lab {

struct WorkerPlan {
  std::string name;
  long long amount = 0;
  long account = 1;
  std::chrono::milliseconds ttl{2000};
  double delay_seconds = 0;                   // after the run's start
  double pause_seconds = 0;                   // after the first read only: the simulated GC pause
  double hold_seconds = 0;                    // after the first write, before the release: work still under the lock
  std::chrono::milliseconds busy_retry{100};  // how long to wait before asking again for a refused lock
  // poll: sleep busy_retry between attempts (the article); notify: wake as soon as the lock's
  // release is announced, and after busy_retry at the latest (release_waiter.h).
  WaitMode wait = WaitMode::poll;
  // ttl: the article's lock; watchdog: extended every TTL/3 from a thread; check-before-write:
  // check the lock is still held right after the read (it passes, and the write is still unsafe);
  // fenced: a fencing token and the fenced UPDATE; fenced-retry: a rejected write starts again from
  // the acquisition; fenced-claim: retries too, and claims the fence at the read (the row's fence
  // set to ours), writing only while it is still ours; redlock: a majority of `redlock`; pg-*: no
  // Redis, added inside PostgreSQL (an atomic UPDATE, or a transaction holding the row's lock or
  // the account's advisory lock across the read, the pause and the write).
  Strategy strategy = Strategy::ttl;
  LockOptions lock_options;  // the restart guard and WAIT, both off unless asked for
  // The redlock strategy's independent servers (3 or more), used instead of the one Redis.
  std::vector<RedisAddress> redlock;
};

// Where a worker's run happens: the servers, the lab directory, the language of run.log.
struct LabSetup {
  RedisAddress redis;
  std::string conninfo;
  LabDir dir;
  Lang lang = Lang::en;
};

// The fenced write was rejected and the plan did not ask to retry: the amount was not added.
class WriteRejected : public Error {
 public:
  using Error::Error;
};

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
