// net-delay: every connection of every worker slowed, all along the trial: worker i's by a mean
// latency drawn from 0 to a quarter TTL, times a factor drawn anew from 0.5 to 1.5 every kTick (the
// jitter, TrialNetwork::jitter). Nothing strikes once; it counts as struck once any worker did
// anything, every step of theirs having gone through the delayed network (pg-atomic never reads).
#include <vector>

#include "chaos/faults/fault.h"
#include "chaos/faults/strikes.h"
#include "chaos/schedule.h"
#include "chaos/trial_context.h"

namespace rlock::chaos::faults {
namespace {

class NetDelay : public FaultModel {
 public:
  std::string_view name() const override { return "net-delay"; }
  void draw_rest(ScheduleDraw& draw) const override {
    for (WorkerSchedule& w : draw.schedule.workers) w.latency_ms = draw.uniform(0, draw.ttl_s * 1000 / 4);
  }
  std::string_view not_applicable_to_client(protocol::ServerKind kind) const override { return redis_unused(kind); }
  bool through_proxies() const override { return true; }

  std::function<void()> tick(TrialContext& trial) const override {
    if (!trial.network) return {};
    std::vector<double> latency;
    for (const WorkerSchedule& w : trial.schedule.workers) latency.push_back(w.latency_ms);
    return [network = trial.network.get(), latency] { network->jitter(latency); };
  }
  bool struck(const Schedule&, const std::vector<lab::Event>& events) const override { return !events.empty(); }
};

}  // namespace

const FaultModel& net_delay() {
  static const NetDelay fault;
  return fault;
}

}  // namespace rlock::chaos::faults
