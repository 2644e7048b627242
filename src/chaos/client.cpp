#include "chaos/client.h"

#include <chrono>

#include "host/child.h"

namespace rlock {
namespace {

using namespace std::chrono_literals;

constexpr auto kBusyRetry = 10ms;

}  // namespace

WorkerPlan plan_for(Strategy strategy, const WorkerSchedule& w, long account, const ChaosSetup& setup,
                    const std::vector<RedisAddress>& redlock) {
  WorkerPlan plan;
  plan.name = w.name;
  plan.amount = w.amount;
  plan.account = account;
  plan.ttl = setup.ttl;
  plan.delay_seconds = w.delay_s;
  plan.pause_seconds = w.work_s;
  plan.hold_seconds = w.hold_s;
  plan.busy_retry = kBusyRetry;
  plan.strategy = strategy;
  if (strategy == Strategy::redlock) plan.redlock = redlock;
  if (!in_postgres(strategy) && strategy != Strategy::redlock) plan.wait = setup.wait;
  return plan;
}

pid_t spawn_worker(const WorkerPlan& plan, const LabSetup& setup, const std::function<void()>& first) {
  return fork_child([&] {
    if (first) first();
    try {
      run_worker(plan, setup);
    } catch (const WriteRejected&) {
      return 3;
    }
    return 0;
  });
}

}  // namespace rlock
