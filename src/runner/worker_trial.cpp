#include "runner/worker_trial.h"

#include <signal.h>
#include <sys/types.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <thread>

#include "chaos/netns_job.h"
#include "chaos/trial_loop.h"
#include "host/child.h"
#include "runner/worker_spawn.h"

namespace rlock::runner {
namespace {

// The forked workers of a trial, as the loop drives them.
class ForkedWorkers : public chaos::Participants {
 public:
  ForkedWorkers(const chaos::TrialContext& trial, std::vector<pid_t> pids)
      : trial_(trial), pids_(std::move(pids)), done_(pids_.size(), false) {
    for (const lab::WorkerPlan& w : trial.schedule.workers)
      exits_.push_back(checker::WorkerExit{w.name, w.amount, false, 0});
  }

  void advance(chaos::TrialClock::time_point now) override {
    for (std::size_t i = 0; i < pids_.size(); ++i) {
      if (done_[i]) continue;
      if (std::optional<host::ChildExit> exit = host::try_reap(pids_[i])) ended(i, *exit);
    }
    std::size_t target = trial_.schedule.target;
    if (!read_at_ && !done_[target] &&
        std::filesystem::exists(trial_.dir.read_marker(trial_.schedule.workers[target].name))) {
      read_at_ = now;
    }
  }

  void wait() override { std::this_thread::sleep_for(chaos::kRound); }
  bool done(std::size_t worker) const override { return done_[worker]; }
  bool all_done() const override {
    return std::all_of(done_.begin(), done_.end(), [](bool d) { return d; });
  }

  std::optional<chaos::TrialClock::time_point> strike_time(const chaos::FaultModel& fault) const override {
    if (!read_at_) return std::nullopt;
    return *read_at_ + chaos::seconds_of(fault.strike_after_s(trial_.schedule));
  }

  bool signal(std::size_t worker, int number) override {
    return ::kill(pids_[worker], number) == 0;  // fails when the worker has just exited
  }

  void end_the_rest(bool late) override {
    for (std::size_t i = 0; i < pids_.size(); ++i) {
      if (done_[i]) continue;
      ended(i, host::kill_and_reap(pids_[i]));
      exits_[i].stuck = late;
    }
  }

  std::vector<checker::WorkerExit> exits() const { return exits_; }

 private:
  void ended(std::size_t i, const host::ChildExit& exit) {
    done_[i] = true;
    exits_[i].exited = exit.exited();
    exits_[i].code = exit.code();
  }

  const chaos::TrialContext& trial_;
  std::vector<pid_t> pids_;
  std::vector<bool> done_;
  std::vector<checker::WorkerExit> exits_;
  std::optional<chaos::TrialClock::time_point> read_at_;  // when the loop saw the target's read
};

// Worker i forked, on the trial's servers or its proxies; under --netns in its own namespace.
pid_t spawn(const chaos::TrialContext& trial, std::size_t i) {
  const chaos::ChaosSetup& setup = trial.setup();
  const chaos::TrialNetwork* network = trial.network.get();
  std::vector<RedisAddress> servers = network ? network->redis_of(i) : trial.redlock;
  lab::RunSetup lab{network ? servers.front() : trial.redis(), network ? network->conninfo_of(i) : setup.conninfo,
                    trial.dir, lab::Lang::en};
  lab::WorkerPlan plan = plan_for(trial.spec.strategy, trial.schedule.workers[i], trial.account, setup,
                                  trial.redlock.empty() ? trial.redlock : servers);
  chaos::JobLab* netns = trial.job.lab;
  return spawn_worker(plan, lab, i == trial.schedule.target ? trial.spec.fault->target_clock_rate(trial.schedule) : 1,
                      netns ? std::function<void()>([netns, i] { netns->enter_worker(i); }) : std::function<void()>());
}

}  // namespace

std::vector<checker::WorkerExit> run_workers(chaos::TrialContext& trial, const std::function<bool()>& stopped) {
  struct HealAll {  // no partition outlives its trial
    chaos::JobLab* lab;
    ~HealAll() {
      if (lab) lab->heal_all();
    }
  } heal_all{trial.job.lab};
  // The workers' clocks start once all are forked, or a skewed one exec'd.
  trial.dir.start_new_run(lab::wall_seconds() +
                          (trial.spec.fault->target_clock_rate(trial.schedule) != 1 ? kExecLead : 0.05));
  trial.log.emplace(trial.dir, lab::Lang::en);
  std::vector<pid_t> pids;
  for (std::size_t i = 0; i < trial.schedule.workers.size(); ++i) pids.push_back(spawn(trial, i));
  ForkedWorkers workers(trial, std::move(pids));
  chaos::run_trial_loop(trial, workers, stopped);
  return workers.exits();
}

}  // namespace rlock::runner
