// pause-waiter: a waiter stopped (SIGSTOP) while the first holder holds, then continued (SIGCONT)
// once its own lease or session has had time to run out: etcd#11456 (a waiter returns from Lock()
// without checking that its lease is alive) and Curator's session expiry. The waiter is the second
// to start (or, when that one is done by then, having taken the lock before the first, the next to
// start that is not): when the first holder has read and a drawn 0.1 to 0.2 TTLs more have passed,
// it has asked for the lock and waits. The holder releases 0.1 to 0.3 TTLs after the strike, while the
// waiter is stopped; the pause lasts 1.25 to 2.25 TTLs, past a lease or session of the TTL (etcd's
// is whole seconds, ZooKeeper expires a session within a tick of it), so that a queue lock (etcd,
// ZooKeeper) hands the lock to the next in line, which still holds it when the waiter continues:
// each waiter works 0.5 to 0.8 TTLs, inside its TTL. A trial has three workers at least, the third
// the next in line. A built-in worker and a protocol client (its whole process group) alike.
#include <algorithm>
#include <numeric>
#include <vector>

#include "chaos/faults/strikes.h"
#include "chaos/schedule.h"
#include "chaos/trial_context.h"
#include "chaos/trial_loop.h"
#include "util/seeded_random.h"

namespace rlock::chaos::faults {
namespace {

// The workers but the target (the first to start), in the order they start.
std::vector<std::size_t> waiters_of(const Schedule& schedule) {
  std::vector<std::size_t> order(schedule.workers.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return schedule.workers[a].delay_seconds < schedule.workers[b].delay_seconds;
  });
  std::erase(order, schedule.target);
  return order;
}

// The second worker to start.
std::size_t waiter_of(const Schedule& schedule) { return waiters_of(schedule).front(); }

// How long after the target's read the waiter is paused.
struct PauseWaiterDraws {
  double strike_after_s = 0;
};

class PauseWaiter : public FaultModel {
 public:
  std::string_view name() const override { return "pause-waiter"; }
  std::string_view not_applicable(lab::Strategy strategy) const override { return no_lock_held(strategy); }

  void draw_rest(ScheduleDraw& draw) const override {
    Schedule& schedule = draw.schedule;
    if (schedule.workers.size() < 3) {
      const lab::WorkerPlan& waiter = schedule.workers[waiter_of(schedule)];
      schedule.workers.push_back(
          lab::WorkerPlan{.name = "C",
                          .amount = draw.rng.integer(1, 100),
                          .delay_seconds = draw.uniform(waiter.delay_seconds, waiter.delay_seconds + 0.05),
                          .work_seconds = 0});
    }
    for (std::size_t i = 0; i < schedule.workers.size(); ++i) {
      if (i != schedule.target) schedule.workers[i].work_seconds = draw.ttl_s * draw.uniform(0.5, 0.8);
    }
    const lab::WorkerPlan& waiter = schedule.workers[waiter_of(schedule)];
    lab::WorkerPlan& holder = draw.target();
    double strike_after_s = waiter.delay_seconds - holder.delay_seconds + draw.ttl_s * draw.uniform(0.1, 0.2);
    holder.work_seconds = strike_after_s + draw.ttl_s * draw.uniform(0.1, 0.3);
    schedule.pause_s = draw.ttl_s * draw.uniform(1.25, 2.25);
    draw.keep(PauseWaiterDraws{strike_after_s});
  }
  std::vector<std::pair<std::string_view, double>> own_draws(const Schedule& schedule) const override {
    return {{"strike_after_s", strike_after_s(schedule)}};
  }

  // The waiter, or when it is done already (it took the lock before the target did), the next to
  // start that is not; none when all are (the target was the last holder): nothing strikes.
  Strike strike(TrialContext& trial, Participants& workers) const override {
    return [&workers, &trial, waiters = waiters_of(trial.schedule)]() -> Heal {
      auto running = std::find_if(waiters.begin(), waiters.end(), [&](std::size_t w) { return !workers.done(w); });
      if (running == waiters.end()) return {};
      const std::string& waiter = trial.schedule.workers[*running].name;
      return strike_with(nemesis_targets(trial, workers), {nemesis::OpKind::pause, waiter},
                         nemesis::Operation{nemesis::OpKind::resume, waiter})();
    };
  }
  double strike_after_s(const Schedule& schedule) const override {
    return drawn_by_fault<PauseWaiterDraws>(schedule).strike_after_s;
  }
  ClientStrike client_strike() const override { return ClientStrike::after_read; }
};

}  // namespace

const FaultModel& pause_waiter() {
  static const PauseWaiter fault;
  return fault;
}

}  // namespace rlock::chaos::faults
