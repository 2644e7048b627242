// A locking strategy as one object: it adds an amount to an account under its lock, the way its
// name says (lab/strategy.h), whoever runs it: the lab's worker, `rlock bench`, `rlock explore`
// (worker.h) and `rlock client --strategy` (protocol/strategy_client.h). make_incrementer is the one
// place that picks the object by the strategy's name; one file per strategy implements it.
//
// The object owns its Redis connections and borrows its account, journal and step hook, which
// must outlive it. Not thread-safe: one thread calls increment() (the watchdog's thread aside).
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "lab/strategy.h"
#include "rlock/acquire.h"
#include "rlock/lock_key.h"
#include "rlock/redis_address.h"
#include "rlock/redis_lock.h"
#include "strategy/account.h"
#include "strategy/journal.h"
#include "strategy/step_hook.h"

namespace rlock::strategy {

// How a strategy takes its lock and paces its work.
struct Setting {
  lab::Strategy strategy = lab::Strategy::ttl;
  std::string name;  // the worker's, in messages
  LockKey key;
  RedisAddress redis;                 // the lock's server
  std::vector<RedisAddress> redlock;  // redlock's independent servers (3 or more)
  std::chrono::milliseconds ttl{2000};
  AcquirePolicy policy;      // how a refused lock is asked for again; with a deadline, when to give up
  LockOptions lock_options;  // the restart guard and WAIT; its waiters as the policy waits
  double work_seconds = 0;   // after the read (a one-lock strategy's first read only)
  double hold_seconds = 0;   // after the first write, before the release
};

// What the strategy borrows.
struct Parts {
  Account& account;
  const Journal& journal;
  StepHook& steps;
};

// What a strategy knows of its own write, for the error event a checker reads.
struct WriteState {
  bool added = false;     // the amount is in the account
  bool in_doubt = false;  // a write was sent and its answer lost: it may be
};

class Incrementer {
 public:
  virtual ~Incrementer() = default;

  // Adds `amount`. Throws lab::WriteRejected when the fenced write was rejected and the strategy
  // does not retry, Error for connection, lock or account failures (OutcomeUnknown when a write's
  // answer was lost).
  void increment(long long amount) {
    state_ = {};
    add(amount);
  }
  // The last increment's write, as far as the strategy knows.
  const WriteState& write_state() const { return state_; }
  // Its Redis connections connect again to whatever server the address now reaches. Only between
  // increments or while a step hook holds it. Throws Error when the server does not answer.
  virtual void reconnect() {}

 protected:
  virtual void add(long long amount) = 0;

  // Runs the write `write`, noting a lost answer.
  template <typename Write>
  auto written(Write&& write) {
    try {
      return write();
    } catch (const OutcomeUnknown&) {
      state_.in_doubt = true;
      throw;
    }
  }

  WriteState state_;
};

// Throws Error when a server does not answer, UsageError when redlock has fewer than 3 servers.
std::unique_ptr<Incrementer> make_incrementer(const Setting& setting, Parts parts);

// Sleeps `seconds` when positive: a simulated pause or work under the lock.
void pause_for(double seconds);

}  // namespace rlock::strategy
