// What a worker is asked to do (WorkerPlan: its name, amount, account, TTL, work, waits and
// strategy; a chaos schedule draws the name, amount, start, work and hold of each), where it runs (RunSetup: the
// servers, the data directory, the language of run.log), and the one failure a caller tells apart (WriteRejected).
// Plain values; thread-safe.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "lab/log_dir.h"
#include "lab/strategy.h"
#include "lab/wording.h"
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
  double delay_seconds = 0;  // after the run's start
  double work_seconds = 0;   // after the first read only: the work before the write (the article's GC pause)
  double hold_seconds = 0;   // after the first write, before the release: work still under the lock
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

// Where a worker's run happens: the servers, the data directory, the language of run.log.
struct RunSetup {
  RedisAddress redis;
  std::string conninfo;
  LogDir dir;
  Lang lang = Lang::en;
};

// The fenced write was rejected and the plan did not ask to retry: the amount was not added.
class WriteRejected : public Error {
 public:
  using Error::Error;
};

}  // namespace rlock::lab
