#include "lab/lab_worker.h"

#include <unistd.h>

#include <optional>
#include <thread>

#include <fmt/format.h>

#include "bank/account_store.h"
#include "lab/run_log.h"
#include "lab/step_gate.h"
#include "rlock/acquire.h"
#include "rlock/patterns/redlock.h"
#include "rlock/redis_lock.h"
#include "rlock/watchdog.h"

namespace rlock::lab {
namespace {

// What a worker knows of its own write, for the error event a checker reads.
struct WriteState {
  bool added = false;     // the amount is in the database
  bool in_doubt = false;  // a write was sent and its answer lost: it may be

  template <typename Write>
  auto write(Write&& write) {
    try {
      return write();
    } catch (const OutcomeUnknown&) {
      in_doubt = true;
      throw;
    }
  }
};

// Where a worker's steps go: the run's log and the host's markers (the lab, chaos), or nowhere
// (RepeatedWorker: rlock bench times the increments alone).
class Journal {
 public:
  Journal(const WorkerPlan& plan, const LabSetup& setup, bool keep)
      : name_(plan.name), dir_(setup.dir), lang_(setup.lang) {
    if (keep) open();
  }

  // Logs to the run started last in the lab directory from now on.
  void open() { log_.emplace(dir_, lang_); }

  void record(EventKind kind, nlohmann::json fields = nlohmann::json::object()) const {
    if (log_) log_->record(name_, kind, std::move(fields));
  }
  void mark_read() const {
    if (log_) dir_.write_file(dir_.read_marker(name_), "");
  }
  double elapsed() const { return log_ ? log_->elapsed() : 0; }
  const RunLog& log() const { return *log_; }  // only when kept

 private:
  std::string name_;
  const LabDir& dir_;
  Lang lang_;
  std::optional<RunLog> log_;
};

// One worker's increments, the same code whether it is logged (run_worker) or not (RepeatedWorker).
class Increments {
 public:
  virtual ~Increments() = default;
  virtual void increment() = 0;
};

// The error event of a worker whose work failed: why, and whether its amount was added.
void record_failure(const RunLog& log, const WorkerPlan& plan, const WriteState& state, const std::exception& e) {
  log.record(plan.name, EventKind::error,
             {{"message", e.what()}, {"amount", plan.amount}, {"added", state.added}, {"in_doubt", state.in_doubt}});
}

// What every kind of worker does around its work: the pid file, the wait for its start, and an
// error event when the work fails.
template <typename Work>
void run_logged(const WorkerPlan& plan, const LabSetup& setup, const RunLog& log, const WriteState& state,
                Work&& work) {
  setup.dir.write_file(setup.dir.pid_file(plan.name), fmt::format("{}\n", ::getpid()));
  sleep_until_wall(log.start() + plan.delay_seconds);
  try {
    work();
  } catch (const std::exception& e) {
    record_failure(log, plan, state, e);
    throw;
  }
}

// How a worker asks for its lock: again after busy_retry (or a release, with notify) while it is
// refused, for up to 5 s while Redis does not answer, with no deadline.
AcquirePolicy acquire_policy(const WorkerPlan& plan) {
  return AcquirePolicy{.retry = plan.busy_retry, .wait = plan.wait, .deadline = std::nullopt};
}

// The plan's safeguards, for a lock whose release serves waiters that wait as the plan's do.
LockOptions lock_options(const WorkerPlan& plan) {
  LockOptions options = plan.lock_options;
  options.waiters = plan.wait;
  return options;
}

void pause_for(double seconds) {
  if (seconds > 0) std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

// The Redis-lock worker of the article. With a gate (`rlock explore`), it stops before each step,
// asks once per acquisition step, its watchdog extends only when the gate says so, and it gives up
// after the gate's bound of tries or restarts.
class Worker final : public Increments {
 public:
  Worker(const WorkerPlan& plan, const LabSetup& setup, bool keep, StepGate* gate = nullptr)
      : plan_(plan),
        setup_(setup),
        gate_(gate),
        journal_(plan, setup, keep),
        redis_(setup.redis),
        store_(setup.conninfo),
        lock_(redis_, LockKey::for_account(plan.account), lock_options(plan)),
        acquirer_(lock_, setup.redis, acquire_policy(plan),
                  AcquireObserver{[this](const Acquisition& refused) { record_refusal(refused); },
                                  [this](const Error& e) {
                                    journal_.record(EventKind::acquire_unanswered, {{"message", e.what()}});
                                  }}) {
    if (gate_ && plan_.strategy == Strategy::watchdog) {
      watchdog_redis_.emplace(setup.redis);
      watchdog_lock_.emplace(*watchdog_redis_, lock_.key());
    }
  }

  void run() {
    run_logged(plan_, setup_, journal_.log(), state_, [this] { increment(); });
  }

  void reconnect() {
    redis_.reconnect();
    if (watchdog_redis_) watchdog_redis_->reconnect();
  }

  void increment() override {
    bool first = true;
    for (int restarts = 0; !attempt(first); ++restarts) {
      first = false;
      if (gate_ && restarts == gate_->bound()) {
        throw Error(
            fmt::format("worker {} gave up after {} restarts; {} was not added", plan_.name, restarts, plan_.amount));
      }
    }
  }

  // One gated increment as its own run, logged to the run started last; false when it failed (the
  // error event says why, as run_worker's does).
  bool gated_increment() {
    journal_.open();
    state_ = {};
    refusals_ = 0;
    try {
      increment();
      return true;
    } catch (const std::exception& e) {
      record_failure(journal_.log(), plan_, state_, e);
      return false;
    }
  }

 private:
  // One pass from acquisition to release. False when it must start again: the fenced write was
  // rejected and the plan asks to retry, or the check before the write found the lock lost.
  bool attempt(bool first) {
    Lease lease = acquire();
    journal_.record(EventKind::acquired,
                    lease.fence ? nlohmann::json{{"ttl_ms", plan_.ttl.count()}, {"fence", lease.fence->value}}
                                : nlohmann::json{{"ttl_ms", plan_.ttl.count()}});
    std::optional<Watchdog> watchdog;
    if (gate_) {
      gate_->granted(plan_.name, lease.token, gated_watchdog(lease.token));
      if (lease.fence) step(Step::fence);
    } else if (plan_.strategy == Strategy::watchdog) {
      watchdog.emplace(setup_.redis, lock_.key(), lease.token, plan_.ttl,
                       [this](const WatchdogReport& report) { record_watchdog(report); });
    }

    long long rowcount = read_modify_write(lease, first);
    if (rowcount < 0) return false;  // the check before the write found the lock lost
    if (first) pause_for(plan_.hold_seconds);

    if (watchdog) {
      watchdog->stop();
      // The callback is this worker's logging: when it threw, the watchdog stopped extending.
      if (std::optional<std::string> failure = watchdog->failure()) {
        journal_.record(EventKind::watchdog_failed, {{"error", *failure}});
      }
    }
    if (gate_) {
      gate_->watchdog_stopped(plan_.name);
      step(Step::release);
    }
    ReleaseResult released = lock_.release(lease.token);
    journal_.record(EventKind::released, {{"result", released == ReleaseResult::released   ? 1
                                                     : released == ReleaseResult::not_held ? 0
                                                                                           : -1}});
    if (released == ReleaseResult::unknown) {
      throw Error(fmt::format("the release of {} got no answer ({}); the lock expires with its TTL", lock_.key().lock,
                              lock_.last_release_error()));
    }

    if (rowcount > 0) return true;
    if (retries_rejected_write(plan_.strategy)) {
      journal_.record(EventKind::rejected_retry);
      return false;
    }
    throw WriteRejected(
        fmt::format("worker {}: the fenced write was rejected (fencing token {} is stale); {} was not added",
                    plan_.name, lease.fence->value, plan_.amount));
  }

  // Read, (check), pause, write. Returns the write's rowcount: 0 when the database rejected a stale
  // fence (at the write, or already at a claiming read), -1 when the check found the lock lost.
  long long read_modify_write(const Lease& lease, bool first) {
    long long balance = 0;
    if (lease.fence && plan_.strategy == Strategy::fenced_claim) {
      step(Step::claim);
      std::optional<long long> claimed = store_.claim_read(plan_.account, *lease.fence);
      if (!claimed) {
        journal_.record(EventKind::claim_rejected, {{"fence", lease.fence->value}});
        return 0;
      }
      step(Step::read);  // the balance came with the claim
      balance = *claimed;
      journal_.record(EventKind::read, {{"balance", balance}, {"fence", lease.fence->value}});
    } else {
      step(Step::read);
      balance = store_.read_balance(plan_.account);
      journal_.record(EventKind::read, {{"balance", balance}});
    }
    if (plan_.strategy == Strategy::check_before_write) {
      Ownership ownership = lock_.holds(lease.token);
      journal_.record(EventKind::checked, {{"held", ownership.held}, {"pttl", ownership.pttl_ms}});
      if (!ownership.held) return -1;
    }
    // After the check: a fault that strikes at the marker falls between the check and the write.
    // A gated worker's host waits at the gate instead.
    if (!gate_) journal_.mark_read();
    if (first) pause_for(plan_.pause_seconds);

    long long after = balance + plan_.amount;
    step(Step::write);
    double sent_at = journal_.elapsed();  // a checker's section ends when the write left, not when it was confirmed
    if (!lease.fence) {
      state_.write([&] {
        store_.write_balance(plan_.account, after);
        return 0;
      });
      state_.added = true;
      journal_.record(EventKind::wrote,
                      {{"before", balance}, {"amount", plan_.amount}, {"after", after}, {"sent_at", sent_at}});
      return 1;
    }
    long long rowcount = state_.write([&] {
      return plan_.strategy == Strategy::fenced_claim ? store_.claimed_write(plan_.account, after, *lease.fence)
                                                      : store_.fenced_write(plan_.account, after, *lease.fence);
    });
    state_.added = rowcount > 0;
    journal_.record(EventKind::fenced_write,
                    {{"balance", after}, {"fence", lease.fence->value}, {"rowcount", rowcount}, {"sent_at", sent_at}});
    return rowcount;
  }

  // The library's policy (acquire.h), which says each refusal once through record_refusal. Gated,
  // one attempt a step, each refusal said; the increment gives up at its refusal number K + 1 (K the
  // gate's bound), counted over all its acquisitions. An attempt Redis left unanswered (the first
  // command after a restart finds the connection lost) is asked again at once, as the policy does,
  // and counts as refused when that one is unanswered too.
  Lease acquire() {
    if (!gate_) {
      return *(takes_fence(plan_.strategy) ? acquirer_.acquire_fenced(plan_.ttl) : acquirer_.acquire(plan_.ttl)).lease;
    }
    auto attempt = [this] {
      return takes_fence(plan_.strategy) ? lock_.acquire_fenced(plan_.ttl) : lock_.acquire(plan_.ttl);
    };
    for (;;) {
      step(Step::acquire);
      std::optional<Acquisition> answered;
      for (int asked = 0; asked < 2 && !answered; ++asked) {
        try {
          answered = attempt();
        } catch (const Error& e) {
          journal_.record(EventKind::acquire_unanswered, {{"message", e.what()}});
        }
      }
      if (answered && *answered) return *answered->lease;
      if (answered) record_refusal(*answered);
      if (++refusals_ > gate_->bound()) {
        throw Error(fmt::format("worker {} gave up after {} refused tries; {} was not added", plan_.name, refusals_,
                                plan_.amount));
      }
    }
  }

  void step(Step step) const {
    if (gate_) gate_->before(plan_.name, step);
  }

  // The gated watchdog's one extension, as Watchdog's thread makes it and reports it; none for
  // another strategy.
  std::function<bool()> gated_watchdog(const Token& token) {
    if (!watchdog_lock_) return {};
    return [this, token] {
      try {
        ExtendResult result = watchdog_lock_->extend(token, plan_.ttl);
        record_watchdog(WatchdogReport{result, std::nullopt});
        return result.extended;
      } catch (const Error& e) {
        record_watchdog(WatchdogReport{{}, e.what()});
        return false;
      }
    };
  }

  void record_refusal(const Acquisition& refused) {
    using Refusal = Acquisition::Refusal;
    double retry_s = std::chrono::duration<double>(plan_.busy_retry).count();
    switch (refused.refusal) {
      case Refusal::redis_too_young:
        journal_.record(EventKind::redis_too_young, {{"uptime_s", refused.redis_uptime_s},
                                                     {"min_ms", plan_.lock_options.min_redis_uptime.count()},
                                                     {"retry_s", retry_s}});
        return;
      case Refusal::under_replicated:
        journal_.record(
            EventKind::under_replicated,
            {{"acked", refused.replicas_acked}, {"wanted", plan_.lock_options.wait_replicas}, {"retry_s", retry_s}});
        return;
      default: journal_.record(EventKind::busy, {{"retry_s", retry_s}});
    }
  }

  void record_watchdog(const WatchdogReport& report) {
    if (report.result.extended) {
      journal_.record(EventKind::watchdog_extended, {{"pttl", report.result.pttl_ms}});
    } else if (report.error) {
      journal_.record(EventKind::watchdog_failed, {{"error", *report.error}});
    } else {
      journal_.record(EventKind::watchdog_failed, {{"pttl", report.result.pttl_ms}});
    }
  }

  const WorkerPlan& plan_;
  const LabSetup& setup_;
  StepGate* gate_;
  Journal journal_;
  RedisConnection redis_;
  bank::AccountStore store_;
  RedisLock lock_;
  Acquirer acquirer_;
  WriteState state_;
  int refusals_ = 0;  // gated: the increment's refused acquisitions so far
  // Gated, the watchdog's own connection and lock (a watchdog's, not the worker's).
  std::optional<RedisConnection> watchdog_redis_;
  std::optional<RedisLock> watchdog_lock_;
};

// Redlock's worker: the article's read-modify-write under a lock granted by a majority of
// independent servers. No fence: what it writes, it writes unchecked.
class RedlockWorker final : public Increments {
 public:
  RedlockWorker(const WorkerPlan& plan, const LabSetup& setup, bool keep)
      : plan_(plan),
        setup_(setup),
        journal_(plan, setup, keep),
        store_(setup.conninfo),
        lock_(plan.redlock, LockKey::for_account(plan.account)) {}

  void run() {
    run_logged(plan_, setup_, journal_.log(), state_, [this] { increment(); });
  }

  void increment() override {
    Token token = acquire();
    long long before = store_.read_balance(plan_.account);
    journal_.record(EventKind::read, {{"balance", before}});
    journal_.mark_read();
    pause_for(plan_.pause_seconds);
    double sent_at = journal_.elapsed();
    state_.write([&] { return store_.write_balance(plan_.account, before + plan_.amount); });
    state_.added = true;
    journal_.record(
        EventKind::wrote,
        {{"before", before}, {"amount", plan_.amount}, {"after", before + plan_.amount}, {"sent_at", sent_at}});
    pause_for(plan_.hold_seconds);
    journal_.record(EventKind::released, {{"result", lock_.release(token) >= lock_.quorum() ? 1 : 0}});
  }

 private:
  Token acquire() {
    RedlockAcquirer acquirer(lock_, acquire_policy(plan_), [this](const RedlockAttempt&) {
      journal_.record(EventKind::busy, {{"retry_s", std::chrono::duration<double>(plan_.busy_retry).count()}});
    });
    RedlockAttempt attempt = acquirer.acquire(plan_.ttl);
    journal_.record(
        EventKind::acquired,
        {{"ttl_ms", plan_.ttl.count()}, {"granted", attempt.granted}, {"validity_ms", attempt.validity.count()}});
    return *attempt.token;
  }

  const WorkerPlan& plan_;
  const LabSetup& setup_;
  Journal journal_;
  bank::AccountStore store_;
  Redlock lock_;
  WriteState state_;
};

// The PostgreSQL-native baselines: no Redis, the database's own locks.
class PgWorker final : public Increments {
 public:
  PgWorker(const WorkerPlan& plan, const LabSetup& setup, bool keep)
      : plan_(plan), setup_(setup), journal_(plan, setup, keep), store_(setup.conninfo) {}

  void run() {
    run_logged(plan_, setup_, journal_.log(), state_, [this] { increment(); });
  }

  void increment() override {
    if (plan_.strategy == Strategy::pg_atomic) {
      ready_to_write();
      long long after = state_.write([&] { return store_.add_atomically(plan_.account, plan_.amount); });
      state_.added = true;
      journal_.record(EventKind::pg_added, {{"amount", plan_.amount}, {"after", after}});
      return;
    }
    bool row = plan_.strategy == Strategy::pg_row_lock;
    long long before = 0;
    double sent_at = 0;
    long long after = state_.write([&] {
      return store_.locked_update(plan_.account,
                                  row ? bank::AccountStore::TxLock::row : bank::AccountStore::TxLock::advisory,
                                  [&](long long balance) {
                                    journal_.record(EventKind::pg_locked, {{"lock", row ? "row" : "advisory"}});
                                    journal_.record(EventKind::read, {{"balance", balance}});
                                    before = balance;
                                    ready_to_write();
                                    sent_at = journal_.elapsed();  // the commit releases the lock later
                                    return balance + plan_.amount;
                                  });
    });
    state_.added = true;
    journal_.record(EventKind::wrote,
                    {{"before", before}, {"amount", plan_.amount}, {"after", after}, {"sent_at", sent_at}});
  }

 private:
  // The marker a host waits for to pause or kill a worker mid-work, then the work itself.
  void ready_to_write() {
    journal_.mark_read();
    pause_for(plan_.pause_seconds);
  }

  const WorkerPlan& plan_;
  const LabSetup& setup_;
  Journal journal_;
  bank::AccountStore store_;
  WriteState state_;
};

}  // namespace

void run_worker(const WorkerPlan& plan, const LabSetup& setup) {
  if (in_postgres(plan.strategy)) {
    PgWorker(plan, setup, true).run();
  } else if (plan.strategy == Strategy::redlock) {
    RedlockWorker(plan, setup, true).run();
  } else {
    Worker(plan, setup, true).run();
  }
}

struct RepeatedWorker::Impl {
  WorkerPlan plan;
  LabSetup setup;
  std::unique_ptr<Increments> worker;
};

RepeatedWorker::RepeatedWorker(WorkerPlan plan, const RedisAddress& redis, const std::string& conninfo)
    : impl_(std::make_unique<Impl>(Impl{std::move(plan), LabSetup{redis, conninfo, LabDir(""), Lang::en}, nullptr})) {
  impl_->plan.delay_seconds = 0;
  impl_->plan.pause_seconds = 0;
  const WorkerPlan& p = impl_->plan;
  if (in_postgres(p.strategy)) {
    impl_->worker = std::make_unique<PgWorker>(p, impl_->setup, false);
  } else if (p.strategy == Strategy::redlock) {
    impl_->worker = std::make_unique<RedlockWorker>(p, impl_->setup, false);
  } else {
    impl_->worker = std::make_unique<Worker>(p, impl_->setup, false);
  }
}

RepeatedWorker::~RepeatedWorker() = default;

void RepeatedWorker::increment() { impl_->worker->increment(); }

struct GatedWorker::Impl {
  WorkerPlan plan;
  LabSetup setup;
  std::unique_ptr<Worker> worker;
};

bool gated(Strategy strategy) {
  return strategy == Strategy::ttl || strategy == Strategy::watchdog || takes_fence(strategy);
}

GatedWorker::GatedWorker(WorkerPlan plan, LabSetup setup, StepGate& gate)
    : impl_(std::make_unique<Impl>(Impl{std::move(plan), std::move(setup), nullptr})) {
  if (!gated(impl_->plan.strategy)) {
    throw UsageError(fmt::format("strategy {} has no gated worker", to_string(impl_->plan.strategy)));
  }
  impl_->worker = std::make_unique<Worker>(impl_->plan, impl_->setup, false, &gate);
}

GatedWorker::~GatedWorker() = default;

bool GatedWorker::increment() { return impl_->worker->gated_increment(); }

void GatedWorker::reconnect() { impl_->worker->reconnect(); }

}  // namespace rlock::lab
