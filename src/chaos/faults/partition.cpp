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
  void draw_work(ScheduleDraw& draw) const override {
    draw.target().work_seconds = draw.ttl_s * draw.uniform(1.5, 3.0);
  }
  bool through_proxies() const override { return true; }
  bool runs_in_netns() const override { return true; }

  Strike strike(TrialContext& trial, Participants& workers) const override {
    nemesis::Targets targets = nemesis_targets(trial, workers);
    if (JobLab* lab = trial.job.lab) {
      targets.cut = [lab](std::size_t worker, bool cut) { cut ? lab->cut_redis(worker) : lab->heal_redis(worker); };
    } else {
      targets.cut = [network = trial.network.get()](std::size_t worker, bool cut) {
        cut ? network->cut_redis(worker) : network->heal_redis(worker);
      };
    }
    const std::string& target = target_name(trial);
    return strike_with(std::move(targets), {nemesis::OpKind::partition, target},
                       nemesis::Operation{nemesis::OpKind::heal, target});
  }
};

}  // namespace

const FaultModel& partition() {
  static const Partition fault;
  return fault;
}

}  // namespace rlock::chaos::faults
