// slow: nothing strikes; the target's work takes 1.5 to 3 TTLs, so that its lock expires while it
// works and only a watchdog could have kept it. A protocol client's read is answered that late.
// It counts as struck once the target has read.
#include "chaos/faults/strikes.h"
#include "chaos/schedule.h"

namespace rlock::chaos::faults {
namespace {

class Slow : public FaultModel {
 public:
  std::string_view name() const override { return "slow"; }
  std::string_view not_applicable(lab::Strategy strategy) const override { return no_lock_held(strategy); }
  void draw_work(ScheduleDraw& draw) const override {
    draw.target().work_seconds = draw.ttl_s * draw.uniform(1.5, 3.0);
  }
  bool struck(const Schedule& schedule, const std::vector<lab::Event>& events) const override {
    return FaultModel::struck(schedule, events) || target_read(schedule, events);
  }
};

}  // namespace

const FaultModel& slow() {
  static const Slow fault;
  return fault;
}

}  // namespace rlock::chaos::faults
