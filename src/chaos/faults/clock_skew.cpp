// clock-skew: the target runs under Debian's faketime, its wall clock and its sleeps as fast or as
// slow as a drawn rate, 0.5 to 2 (as often slow as fast), its work ending just inside its TTL by its
// own clock: a slow clock stretches it past the TTL, a fast one ends it early (runner/worker_spawn.h
// spawn_worker). Nothing strikes; it counts as struck once the target has read. Not for protocol
// clients: faketime cannot skew a program of any language honestly (a runtime that waits on the
// monotonic clock hangs or runs unskewed).
#include <cmath>

#include "chaos/faults/strikes.h"
#include "chaos/schedule.h"

namespace rlock::chaos::faults {
namespace {

// How fast the target's clock runs, 0.5 to 2 (drawn last).
struct ClockSkewDraws {
  double clock_rate = 1;
};

class ClockSkew : public FaultModel {
 public:
  std::string_view name() const override { return "clock-skew"; }
  std::string_view not_applicable(lab::Strategy strategy) const override { return no_lock_held(strategy); }
  std::string_view not_applicable_to_client(protocol::ServerKind) const override { return "clock not skewed"; }
  void draw_work(ScheduleDraw& draw) const override { draw.target().work_s = draw.ttl_s * draw.uniform(0.7, 0.95); }
  void draw_rest(ScheduleDraw& draw) const override { draw.keep(ClockSkewDraws{std::exp2(draw.uniform(-1, 1))}); }
  std::vector<std::pair<std::string_view, double>> own_draws(const Schedule& schedule) const override {
    return {{"clock_rate", target_clock_rate(schedule)}};
  }
  double target_clock_rate(const Schedule& schedule) const override {
    return drawn_by_fault<ClockSkewDraws>(schedule).clock_rate;
  }
  bool struck(const Schedule& schedule, const std::vector<lab::Event>& events) const override {
    return FaultModel::struck(schedule, events) || target_read(schedule, events);
  }
};

}  // namespace

const FaultModel& clock_skew() {
  static const ClockSkew fault;
  return fault;
}

}  // namespace rlock::chaos::faults
