#include "chaos/trial_loop.h"

#include <algorithm>
#include <utility>

#include "chaos/schedule.h"

namespace rlock::chaos {
namespace {

// The fault over one trial: its strike when due, its heal, its tick.
class Nemesis {
 public:
  Nemesis(TrialContext& trial, Participants& workers)
      : fault_(*trial.spec.fault),
        schedule_(trial.schedule),
        workers_(workers),
        strike_(fault_.strike(trial, workers)),
        tick_(fault_.tick(trial)) {}

  void strike_if_due(TrialClock::time_point now) {
    if (!strike_) return;
    std::optional<TrialClock::time_point> at = workers_.strike_time(fault_);
    if (!at || now < *at) return;
    Strike strike = std::exchange(strike_, {});
    if (workers_.done(schedule_.target)) return;  // the target finished first: nothing strikes
    heal_ = strike();
    heal_at_ = TrialClock::now() + seconds_of(fault_.heal_after_s(schedule_));
  }

  void heal_if_due(TrialClock::time_point now, bool all_done) {
    if (heal_ && (all_done || now >= heal_at_)) std::exchange(heal_, {})();
  }

  void tick_if_due(TrialClock::time_point now) {
    if (!tick_ || now < tick_at_) return;
    tick_();
    tick_at_ = now + kTick;
  }

 private:
  const FaultModel& fault_;
  const Schedule& schedule_;
  Participants& workers_;
  Strike strike_;
  std::function<void()> tick_;
  Heal heal_;
  TrialClock::time_point heal_at_{}, tick_at_{};
};

}  // namespace

TrialClock::duration seconds_of(double s) {
  return std::chrono::duration_cast<TrialClock::duration>(std::chrono::duration<double>(s));
}

TrialClock::duration trial_limit(const FaultModel& fault, const Schedule& schedule, std::chrono::milliseconds ttl) {
  double ttl_s = std::chrono::duration<double>(ttl).count();
  double last_start = 0, work = 0, clock_rate = fault.target_clock_rate(schedule);
  for (std::size_t i = 0; i < schedule.workers.size(); ++i) {
    const lab::WorkerPlan& w = schedule.workers[i];
    last_start = std::max(last_start, w.delay_seconds);
    work += (w.work_seconds + w.hold_seconds) / (i == schedule.target ? std::min(clock_rate, 1.0) : 1.0);
  }
  double waits = static_cast<double>(schedule.workers.size() + 2) * ttl_s;
  return std::max<TrialClock::duration>(
      kTrialFloor, seconds_of(last_start + work + schedule.pause_s + fault.added_seconds(schedule) + waits));
}

void run_trial_loop(TrialContext& trial, Participants& workers, const std::function<bool()>& stopped) {
  Nemesis nemesis(trial, workers);
  auto deadline = TrialClock::now() + trial_limit(*trial.spec.fault, trial.schedule, trial.setup().ttl);
  try {
    for (;;) {
      auto now = TrialClock::now();
      workers.advance(now);
      nemesis.strike_if_due(now);  // a strike before a client's answer
      workers.deliver(now);
      nemesis.strike_if_due(now);  // and one just after it
      bool all_done = workers.all_done();
      nemesis.heal_if_due(now, all_done);
      if (all_done) return;
      nemesis.tick_if_due(now);
      if (bool late = TrialClock::now() > deadline; late || (stopped && stopped())) {
        workers.end_the_rest(late);
      } else {
        workers.wait();
      }
    }
  } catch (...) {
    nemesis.heal_if_due(TrialClock::now(), true);  // no fault outlives its trial
    throw;
  }
}

}  // namespace rlock::chaos
