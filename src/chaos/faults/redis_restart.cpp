// redis-restart: the Redis the lock lives on crashes and starts again, empty, as soon as the target
// has read, while it works: the target's work takes half its TTL or more, and still ends well inside
// it, so only the fault can take its lock away. A lock of one Redis lives on the shared one, which
// every job uses: its trials run one at a time, after the others. A lock on Redlock's three servers
// loses the first of them.
#include "chaos/faults/strikes.h"
#include "chaos/schedule.h"
#include "chaos/trial_context.h"

namespace rlock::chaos::faults {
namespace {

class RedisRestart : public FaultModel {
 public:
  std::string_view name() const override { return "redis-restart"; }
  std::string_view not_applicable(lab::Strategy strategy) const override { return redis_unused(strategy); }
  std::string_view not_applicable_to_client(protocol::ServerKind kind) const override { return redis_unused(kind); }
  void draw_work(ScheduleDraw& draw) const override {
    draw.target().work_seconds = draw.ttl_s * draw.uniform(0.5, 0.8);
  }
  bool strikes_server() const override { return true; }
  bool one_at_a_time() const override { return true; }

  // One Redis: the shared one; three: the first of the job's, a LocalRedis (nemesis_targets).
  Strike strike(TrialContext& trial, Participants& workers) const override {
    return strike_with(nemesis_targets(trial, workers), {nemesis::OpKind::restart});
  }
};

}  // namespace

const FaultModel& redis_restart() {
  static const RedisRestart fault;
  return fault;
}

}  // namespace rlock::chaos::faults
