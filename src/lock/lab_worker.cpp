#include "lab_worker.h"

#include <unistd.h>

#include <optional>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "account_store.h"
#include "redis_lock.h"
#include "run_log.h"
#include "watchdog.h"

namespace rlock {
namespace {

using namespace std::chrono_literals;
constexpr auto kBusyRetry = 100ms;

void sleep_until_wall(double epoch_seconds) {
  auto when = std::chrono::system_clock::time_point(
      std::chrono::duration_cast<std::chrono::system_clock::duration>(std::chrono::duration<double>(epoch_seconds)));
  std::this_thread::sleep_until(when);
}

class Worker {
 public:
  Worker(const WorkerPlan& plan, const LabSetup& setup)
      : plan_(plan),
        setup_(setup),
        log_(setup.dir, setup.lang),
        redis_(setup.redis),
        store_(setup.conninfo),
        lock_(redis_, LockKey::for_account(plan.account), plan.lock_options) {}

  void run() {
    setup_.dir.write_file(setup_.dir.pid_file(plan_.name), fmt::format("{}\n", ::getpid()));
    sleep_until_wall(log_.start() + plan_.delay_seconds);
    try {
      bool first = true;
      while (!attempt(first)) first = false;
    } catch (const std::exception& e) {
      // `added` tells a checker whether this worker's amount is in the database as far as it knows.
      log_.record(plan_.name, EventKind::error, {{"message", e.what()}, {"amount", plan_.amount}, {"added", added_}});
      throw;
    }
  }

 private:
  // One pass from acquisition to release. False when it must start again: the fenced write was
  // rejected and the plan asks to retry, or the check before the write found the lock lost.
  bool attempt(bool first) {
    Lease lease = acquire();
    log_.record(plan_.name, EventKind::acquired,
                lease.fence ? nlohmann::json{{"ttl_ms", plan_.ttl.count()}, {"fence", lease.fence->value}}
                            : nlohmann::json{{"ttl_ms", plan_.ttl.count()}});
    std::optional<Watchdog> watchdog;
    if (plan_.watchdog) {
      watchdog.emplace(setup_.redis, lock_.key(), lease.token, plan_.ttl,
                       [this](const WatchdogReport& report) { record_watchdog(report); });
    }

    long long balance = store_.read_balance(plan_.account);
    log_.record(plan_.name, EventKind::read, {{"balance", balance}});
    setup_.dir.write_file(setup_.dir.read_marker(plan_.name), "");
    if (plan_.check_before_write) {
      Ownership ownership = lock_.holds(lease.token);
      log_.record(plan_.name, EventKind::checked, {{"held", ownership.held}, {"pttl", ownership.pttl_ms}});
      if (!ownership.held) return false;
    }
    if (first && plan_.pause_seconds > 0) std::this_thread::sleep_for(std::chrono::duration<double>(plan_.pause_seconds));

    long long after = balance + plan_.amount;
    long long rowcount = 1;
    if (lease.fence) {
      rowcount = store_.fenced_write(plan_.account, after, *lease.fence);
      added_ = rowcount > 0;
      log_.record(plan_.name, EventKind::fenced_write,
                  {{"balance", after}, {"fence", lease.fence->value}, {"rowcount", rowcount}});
    } else {
      store_.write_balance(plan_.account, after);
      added_ = true;
      log_.record(plan_.name, EventKind::wrote, {{"before", balance}, {"amount", plan_.amount}, {"after", after}});
    }

    if (watchdog) watchdog->stop();
    ReleaseResult released = lock_.release(lease.token);
    log_.record(plan_.name, EventKind::released,
                {{"result", released == ReleaseResult::released ? 1 : released == ReleaseResult::not_held ? 0 : -1}});
    if (released == ReleaseResult::unknown) {
      throw Error(fmt::format("the release of {} got no answer ({}); the lock expires with its TTL",
                              lock_.key().lock, lock_.last_release_error()));
    }

    if (rowcount > 0) return true;
    if (plan_.retry) {
      log_.record(plan_.name, EventKind::rejected_retry);
      return false;
    }
    throw WriteRejected(fmt::format("worker {}: the fenced write was rejected (fencing token {} is stale); {} was not added",
                                    plan_.name, lease.fence->value, plan_.amount));
  }

  // Retries every 0.1 s while the lock is refused, saying once for each reason why.
  Lease acquire() {
    std::set<Acquisition::Refusal> said;
    for (;;) {
      Acquisition acquisition = plan_.fenced ? lock_.acquire_fenced(plan_.ttl) : lock_.acquire(plan_.ttl);
      if (acquisition) return *acquisition.lease;
      if (said.insert(acquisition.refusal).second) record_refusal(acquisition);
      std::this_thread::sleep_for(kBusyRetry);
    }
  }

  void record_refusal(const Acquisition& refused) {
    using Refusal = Acquisition::Refusal;
    switch (refused.refusal) {
      case Refusal::redis_too_young:
        log_.record(plan_.name, EventKind::redis_too_young,
                    {{"uptime_s", refused.redis_uptime_s}, {"min_ms", plan_.lock_options.min_redis_uptime.count()}});
        return;
      case Refusal::under_replicated:
        log_.record(plan_.name, EventKind::under_replicated,
                    {{"acked", refused.replicas_acked}, {"wanted", plan_.lock_options.wait_replicas}});
        return;
      default:
        log_.record(plan_.name, EventKind::busy, {{"retry_ms", kBusyRetry.count()}});
    }
  }

  void record_watchdog(const WatchdogReport& report) {
    if (report.result.extended) {
      log_.record(plan_.name, EventKind::watchdog_extended, {{"pttl", report.result.pttl_ms}});
    } else if (report.error) {
      log_.record(plan_.name, EventKind::watchdog_failed, {{"error", *report.error}});
    } else {
      log_.record(plan_.name, EventKind::watchdog_failed, {{"pttl", report.result.pttl_ms}});
    }
  }

  const WorkerPlan& plan_;
  const LabSetup& setup_;
  RunLog log_;
  RedisConnection redis_;
  AccountStore store_;
  RedisLock lock_;
  bool added_ = false;
};

}  // namespace

void run_worker(const WorkerPlan& plan, const LabSetup& setup) { Worker(plan, setup).run(); }

}  // namespace rlock
