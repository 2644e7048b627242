// The loop of one trial, the same for built-in workers and for protocol clients: it strikes once
// the fault's time has come (after the target's read), heals when due (at the latest when the
// trial ends, or leaves by an exception), ticks the fault all along, and at the trial's deadline,
// or when the campaign stops, ends the workers still running. The two kinds of worker differ behind
// Participants: a forked worker is reaped, and its read seen by its marker file (worker_trial.h); a
// protocol client is sent its increment and served its messages (client_trial.h).
//
// The constants both kinds keep are here, once. Runs on the trial's thread; not thread-safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>

#include "chaos/faults/fault.h"
#include "chaos/trial_context.h"

namespace rlock::chaos {

using TrialClock = std::chrono::steady_clock;

// The least a trial may run before it is ended (trial_limit).
inline constexpr std::chrono::seconds kTrialFloor{10};
// How often a refused built-in worker tries again (WorkerPlan::busy_retry).
inline constexpr std::chrono::milliseconds kBusyRetry{10};
// How often the fault ticks (net-delay's jitter).
inline constexpr std::chrono::milliseconds kTick{10};
// How long the loop waits between its rounds, at most.
inline constexpr std::chrono::milliseconds kRound{2};
// A protocol client that owes an answer may be silent for silence_limit(TTL) (protocol/client_driver.h,
// shared with bench).

TrialClock::duration seconds_of(double s);

// How long a trial may run before it is ended, its unfinished workers stuck (their outcome
// unknown): the longest a correct trial of `schedule` could need, and kTrialFloor at least. That
// is the last start, every worker's work and hold one after the other (the target's stretched by a
// slow clock), the pause, 20 round trips of each worker's drawn latency, and a TTL for each worker
// and two more of lock waits (a lock left behind by a killed or paused holder expires at its TTL).
TrialClock::duration trial_limit(const FaultModel& fault, const Schedule& schedule, std::chrono::milliseconds ttl);

// The workers of one trial, as the loop drives them. Worker i is the schedule's i-th.
class Participants {
 public:
  virtual ~Participants() = default;
  // What is due by `now` before the strike: a forked worker's end reaped, a client's increment sent.
  virtual void advance(TrialClock::time_point now) = 0;
  // What is due by `now` between a strike before an answer and one after it: a client's answers.
  virtual void deliver(TrialClock::time_point) {}
  // Waits kRound at most for something to happen, and takes what did (a client's messages).
  virtual void wait() = 0;
  virtual bool done(std::size_t worker) const = 0;
  virtual bool all_done() const = 0;
  // When `fault` strikes, once the target has read; nullopt before.
  virtual std::optional<TrialClock::time_point> strike_time(const FaultModel& fault) const = 0;
  // Sends signal `number` to a worker, for the nemesis (nemesis/nemesis.h), which records it; false
  // when the worker has already ended.
  virtual bool signal(std::size_t worker, int number) = 0;
  // Ends every worker still running; `late`: the trial's time ran out on them (stuck).
  virtual void end_the_rest(bool late) = 0;
};

// Runs the trial from now (its clock started, trial.log set) until every worker is done, its time
// ran out, or `stopped` says so.
void run_trial_loop(TrialContext& trial, Participants& workers, const std::function<bool()>& stopped);

}  // namespace rlock::chaos
