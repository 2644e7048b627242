// clock-skew: the target runs under Debian's libfaketime, its wall clock and its sleeps as fast or as
// slow as a drawn rate, 0.5 to 2 (as often slow as fast), from the moment its process started. A
// built-in worker's work ends just inside its TTL by its own clock: a slow clock stretches it past
// the TTL, a fast one ends it early (runner/worker_spawn.h
// spawn_worker). A protocol client's process starts with
// libfaketime preloaded, its wall and monotonic clocks and its timed waits at the rate (with its
// monotonic clock left the host's, a JVM's timed waits return at once and its start-up takes tens of
// seconds); the harness holds its read's answer for the same work, by the host's clock, so what the
// skew changes is what the client's library reads from its clock (a lease computed from it). It
// reaches the JVM and Node adapters; a statically linked program (the Go adapters) loads no preloaded
// library and runs true; libfaketime 0.9.10 hangs CPython's waits (its trials end as client errors).
// Nothing strikes; it counts as struck once the target has read.
#include <cmath>

#include <fmt/format.h>

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
  void draw_work(ScheduleDraw& draw) const override {
    draw.target().work_seconds = draw.ttl_s * draw.uniform(0.7, 0.95);
  }
  void draw_rest(ScheduleDraw& draw) const override { draw.keep(ClockSkewDraws{std::exp2(draw.uniform(-1, 1))}); }
  std::vector<std::pair<std::string_view, double>> own_draws(const Schedule& schedule) const override {
    return {{"clock_rate", target_clock_rate(schedule)}};
  }
  double target_clock_rate(const Schedule& schedule) const override {
    return drawn_by_fault<ClockSkewDraws>(schedule).clock_rate;
  }
  std::vector<std::string> target_client_environment(const Schedule& schedule) const override {
    return {"LD_PRELOAD=" + libfaketime(), fmt::format("FAKETIME=+0 x{:.6f}", target_clock_rate(schedule)),
            "FAKETIME_FORCE_MONOTONIC_FIX=1"};
  }
  bool skews_client_clock() const override { return true; }
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
