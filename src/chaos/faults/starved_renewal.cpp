// starved-renewal: the renewal that arrives late (python-redis-lock#85: auto_renewal starved,
// NotAcquired at the release; Redisson's watchdog after a stall). The first holder's process keeps
// running, but from its read on every byte between it and Redis stays in the network (its proxies
// hold them, as partition does) for 1.5 to 3 TTLs: its renewals reach Redis only once the lock has
// run out. Its read's answer is held 0.1 to 0.3 TTLs past the heal, so that it writes after its
// late renewal, and another worker may have taken the lock meanwhile. For a lock that renews: the
// built-in `watchdog` and protocol clients on Redis (whose library may renew: Redisson's watchdog,
// python-redis-lock's auto_renewal, node-redlock's using()); the other built-in strategies renew
// nothing (partition is their fault), and etcd, ZooKeeper and PostgreSQL locks use no Redis. It
// counts as struck when the traffic was held the whole drawn time.
#include "chaos/faults/strikes.h"
#include "chaos/schedule.h"
#include "chaos/trial_context.h"

namespace rlock::chaos::faults {
namespace {

class StarvedRenewal : public FaultModel {
 public:
  std::string_view name() const override { return "starved-renewal"; }
  std::string_view not_applicable(lab::Strategy strategy) const override {
    if (lab::in_postgres(strategy)) return redis_unused(strategy);
    return lab::renews_lease(strategy) ? "" : "no renewal";
  }
  std::string_view not_applicable_to_client(protocol::ServerKind kind) const override { return redis_unused(kind); }
  void draw_rest(ScheduleDraw& draw) const override {
    draw.schedule.pause_s = draw.ttl_s * draw.uniform(1.5, 3.0);
    draw.target().work_seconds = draw.schedule.pause_s + draw.ttl_s * draw.uniform(0.1, 0.3);
  }
  bool through_proxies() const override { return true; }

  Strike strike(TrialContext& trial, Participants& workers) const override {
    nemesis::Targets targets = nemesis_targets(trial, workers);
    targets.cut = [network = trial.network.get()](std::size_t worker, bool cut) {
      cut ? network->cut_redis(worker) : network->heal_redis(worker);
    };
    const std::string& target = target_name(trial);
    return strike_with(std::move(targets), {nemesis::OpKind::partition, target},
                       nemesis::Operation{nemesis::OpKind::heal, target});
  }
  bool struck(const Schedule& schedule, const std::vector<lab::Event>& events) const override {
    return held_whole_pause(schedule, events);
  }
};

}  // namespace

const FaultModel& starved_renewal() {
  static const StarvedRenewal fault;
  return fault;
}

}  // namespace rlock::chaos::faults
