#include "chaos/client.h"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include <fmt/format.h>

#include "rlock/error.h"

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
  plan.busy_retry = kBusyRetry;
  plan.strategy = strategy;
  if (strategy == Strategy::redlock) plan.redlock = redlock;
  if (!in_postgres(strategy) && strategy != Strategy::redlock) plan.wait = setup.wait;
  return plan;
}

pid_t spawn_worker(const WorkerPlan& plan, const LabSetup& setup) {
  pid_t pid = ::fork();
  if (pid < 0) throw Error(fmt::format("fork failed: {}", std::strerror(errno)));
  if (pid > 0) return pid;
  int code = 0;
  try {
    run_worker(plan, setup);
  } catch (const WriteRejected&) {
    code = 3;
  } catch (...) {
    code = 1;
  }
  ::_exit(code);
}

}  // namespace rlock
