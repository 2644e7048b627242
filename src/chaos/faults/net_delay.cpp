// net-delay: every connection of every worker slowed, all along the trial: worker i's by a mean
// latency drawn from 0 to a quarter TTL, times a factor drawn anew from 0.5 to 1.5 every kTick (the
// jitter, TrialNetwork::jitter). Nothing strikes once; it counts as struck once any worker did
// anything, every step of theirs having gone through the delayed network (pg-atomic never reads).
#include <cstddef>
#include <utility>
#include <vector>

#include "chaos/faults/fault.h"
#include "chaos/faults/strikes.h"
#include "chaos/schedule.h"
#include "chaos/trial_context.h"

namespace rlock::chaos::faults {
namespace {

// Each worker's mean latency, in the schedule's order of workers.
struct NetDelayDraws {
  std::vector<double> latency_ms;
};

class NetDelay : public FaultModel {
 public:
  std::string_view name() const override { return "net-delay"; }
  void draw_rest(ScheduleDraw& draw) const override {
    NetDelayDraws drawn;
    for (std::size_t i = 0; i < draw.schedule.workers.size(); ++i) {
      drawn.latency_ms.push_back(draw.uniform(0, draw.ttl_s * 1000 / 4));
    }
    draw.keep(std::move(drawn));
  }
  std::vector<std::pair<std::string_view, double>> own_draws(const Schedule& schedule) const override {
    std::vector<std::pair<std::string_view, double>> drawn;
    for (double latency : drawn_by_fault<NetDelayDraws>(schedule).latency_ms) drawn.emplace_back("latency_ms", latency);
    return drawn;
  }
  // Twenty round trips a worker, each at its mean latency.
  double added_seconds(const Schedule& schedule) const override {
    double latency_ms = 0;
    for (double mean : drawn_by_fault<NetDelayDraws>(schedule).latency_ms) latency_ms += 20 * mean;
    return latency_ms / 1000;
  }
  std::string_view not_applicable_to_client(protocol::ServerKind kind) const override { return redis_unused(kind); }
  bool through_proxies() const override { return true; }

  std::function<void()> tick(TrialContext& trial) const override {
    if (!trial.network) return {};
    std::vector<double> latency = drawn_by_fault<NetDelayDraws>(trial.schedule).latency_ms;
    latency.resize(trial.schedule.workers.size());  // a schedule made by hand drew none: no delay
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
