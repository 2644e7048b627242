#include "strategy/worker.h"

#include <unistd.h>

#include <fmt/format.h>

#include "strategy/gated_steps.h"
#include "strategy/incrementer.h"
#include "strategy/pg_account.h"
#include "strategy/run_journal.h"

namespace rlock::strategy {
namespace {

// A worker's plan as a strategy's setting: asked again after busy_retry (or a release, with
// notify) while it is refused, for up to 5 s while Redis does not answer, with no deadline.
Setting setting_of(const lab::WorkerPlan& plan, const RedisAddress& redis) {
  return Setting{.strategy = plan.strategy,
                 .name = plan.name,
                 .key = LockKey::for_account(plan.account),
                 .redis = redis,
                 .redlock = plan.redlock,
                 .ttl = plan.ttl,
                 .policy = AcquirePolicy{.retry = plan.busy_retry, .wait = plan.wait, .deadline = std::nullopt},
                 .lock_options = plan.lock_options,
                 .work_seconds = plan.work_seconds,
                 .hold_seconds = plan.hold_seconds};
}

// The error event of a worker whose increment failed: why, and whether its amount was added.
void record_failure(const lab::RunLog& log, const lab::WorkerPlan& plan, const WriteState& state,
                    const std::exception& e) {
  log.record(plan.name, lab::EventKind::error,
             {{"message", e.what()}, {"amount", plan.amount}, {"added", state.added}, {"in_doubt", state.in_doubt}});
}

}  // namespace

void run_worker(const lab::WorkerPlan& plan, const lab::RunSetup& setup) {
  RunJournal journal(plan.name, setup.dir, setup.lang, RunJournal::Markers::write);
  journal.open();
  PgAccount account(setup.conninfo, plan.account);
  StepHook free;
  std::unique_ptr<Incrementer> strategy = make_incrementer(setting_of(plan, setup.redis), {account, journal, free});

  setup.dir.write_file(setup.dir.pid_file(plan.name), fmt::format("{}\n", ::getpid()));
  lab::sleep_until_wall(journal.log().start() + plan.delay_seconds);
  try {
    strategy->increment(plan.amount);
  } catch (const std::exception& e) {
    record_failure(journal.log(), plan, strategy->write_state(), e);
    throw;
  }
}

struct RepeatedWorker::Impl {
  Impl(lab::WorkerPlan p, const RedisAddress& redis, const std::string& conninfo)
      : plan(std::move(p)), account(conninfo, plan.account) {
    plan.delay_seconds = 0;
    plan.work_seconds = 0;
    strategy = make_incrementer(setting_of(plan, redis), {account, silent, free});
  }

  lab::WorkerPlan plan;
  Journal silent;
  PgAccount account;
  StepHook free;
  std::unique_ptr<Incrementer> strategy;
};

RepeatedWorker::RepeatedWorker(lab::WorkerPlan plan, const RedisAddress& redis, const std::string& conninfo)
    : impl_(std::make_unique<Impl>(std::move(plan), redis, conninfo)) {}

RepeatedWorker::~RepeatedWorker() = default;

void RepeatedWorker::increment() { impl_->strategy->increment(impl_->plan.amount); }

bool gated(lab::Strategy strategy) {
  return strategy == lab::Strategy::ttl || strategy == lab::Strategy::watchdog || lab::takes_fence(strategy);
}

struct GatedWorker::Impl {
  Impl(lab::WorkerPlan p, lab::RunSetup s, lab::StepGate& gate)
      : plan(std::move(p)),
        setup(std::move(s)),
        journal(plan.name, setup.dir, setup.lang, RunJournal::Markers::none),
        account(setup.conninfo, plan.account),
        steps(plan.name, plan.amount, gate),
        strategy(make_incrementer(setting_of(plan, setup.redis), {account, journal, steps})) {}

  lab::WorkerPlan plan;
  lab::RunSetup setup;
  RunJournal journal;  // its markers are the gate's steps
  PgAccount account;
  GatedSteps steps;
  std::unique_ptr<Incrementer> strategy;
};

GatedWorker::GatedWorker(lab::WorkerPlan plan, lab::RunSetup setup, lab::StepGate& gate) {
  if (!gated(plan.strategy)) {
    throw UsageError(fmt::format("strategy {} has no gated worker", lab::to_string(plan.strategy)));
  }
  impl_ = std::make_unique<Impl>(std::move(plan), std::move(setup), gate);
}

GatedWorker::~GatedWorker() = default;

// One gated increment, logged to `log`; false when it failed (the error event says why, as
// run_worker's does).
bool GatedWorker::increment(const lab::RunLog& log) {
  impl_->journal.use(log);
  impl_->steps.start();
  try {
    impl_->strategy->increment(impl_->plan.amount);
    return true;
  } catch (const std::exception& e) {
    record_failure(impl_->journal.log(), impl_->plan, impl_->strategy->write_state(), e);
    return false;
  }
}

void GatedWorker::reconnect() { impl_->strategy->reconnect(); }

}  // namespace rlock::strategy
