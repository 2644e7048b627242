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
  plan.watchdog = strategy == Strategy::watchdog;
  plan.check_before_write = strategy == Strategy::check_before_write;
  plan.fenced = strategy == Strategy::fenced || strategy == Strategy::fenced_retry || strategy == Strategy::fenced_claim;
  plan.retry = strategy == Strategy::fenced_retry || strategy == Strategy::fenced_claim;
  plan.claim_fence = strategy == Strategy::fenced_claim;
  if (strategy == Strategy::pg_atomic) plan.pg = PgStrategy::atomic;
  if (strategy == Strategy::pg_row_lock) plan.pg = PgStrategy::row_lock;
  if (strategy == Strategy::pg_advisory) plan.pg = PgStrategy::advisory;
  if (strategy == Strategy::redlock) plan.redlock = redlock;
  if (plan.pg == PgStrategy::none && plan.redlock.empty()) plan.wait = setup.wait;
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
