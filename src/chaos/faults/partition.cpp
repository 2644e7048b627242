// partition: the target cut off from Redis as soon as it has read, for the schedule's pause, then
// healed; every byte between them stays in the network meanwhile (as TCP keeps what a partition
// does not let through). The target works as under slow, so that only its watchdog, cut off, could
// have kept the lock. Through the trial's proxies, or under --netns a real partition (netns_job.h).
#include "chaos/faults/strikes.h"
#include "chaos/netns_job.h"
#include "chaos/schedule.h"
#include "chaos/trial_context.h"

namespace rlock::chaos::faults {
namespace {

class Partition : public FaultModel {
 public:
  std::string_view name() const override { return "partition"; }
  std::string_view not_applicable(lab::Strategy strategy) const override { return redis_unused(strategy); }
  std::string_view not_applicable_to_client(protocol::ServerKind kind) const override { return redis_unused(kind); }
  void draw_work(ScheduleDraw& draw) const override { draw.target().work_s = draw.ttl_s * draw.uniform(1.5, 3.0); }
  bool through_proxies() const override { return true; }
  bool runs_in_netns() const override { return true; }

  Strike strike(TrialContext& trial, Participants&) const override {
    std::size_t target = trial.schedule.target;
    if (JobLab* lab = trial.job.lab) {
      return cut_off([lab, target] { lab->cut_redis(target); }, [lab, target] { lab->heal_redis(target); }, trial);
    }
    TrialNetwork* network = trial.network.get();
    return cut_off([network, target] { network->cut_redis(target); },
                   [network, target] { network->heal_redis(target); }, trial);
  }

 private:
  static Strike cut_off(const std::function<void()>& cut, const std::function<void()>& heal, TrialContext& trial) {
    return [cut, heal, &log = trial.run_log(), worker = trial.schedule.workers[trial.schedule.target].name]() -> Heal {
      cut();
      record_network(log, worker, "Redis cut off");
      return [heal, &log, worker] {
        heal();
        record_network(log, worker, "Redis healed");
      };
    };
  }
};

}  // namespace

const FaultModel& partition() {
  static const Partition fault;
  return fault;
}

}  // namespace rlock::chaos::faults
