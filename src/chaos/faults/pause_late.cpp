// pause-late: the target stopped (SIGSTOP) a drawn time after its read, anywhere in its work, for the
// schedule's pause (1 to 2.5 TTLs), then continued (SIGCONT): a GC pause that comes late in the
// critical section, after a lease renewed at the read has run part of its course. The delay is this
// fault's own draw, kept in its own type (PauseLateDraws). A protocol client is stopped whole (its
// process group) the same delay after its read.
#include "chaos/faults/strikes.h"
#include "chaos/schedule.h"
#include "chaos/trial_context.h"

namespace rlock::chaos::faults {
namespace {

// How long after the target's read it is stopped: 0 to its work time.
struct PauseLateDraws {
  double pause_after_s = 0;
};

class PauseLate : public FaultModel {
 public:
  std::string_view name() const override { return "pause-late"; }
  std::string_view not_applicable(lab::Strategy strategy) const override { return no_lock_held(strategy); }

  void draw_rest(ScheduleDraw& draw) const override {
    draw.keep(PauseLateDraws{draw.uniform(0, draw.target().work_seconds)});
  }
  std::vector<std::pair<std::string_view, double>> own_draws(const Schedule& schedule) const override {
    return {{"pause_after_s", strike_after_s(schedule)}};
  }

  Strike strike(TrialContext& trial, Participants& workers) const override {
    const std::string& target = target_name(trial);
    return strike_with(nemesis_targets(trial, workers), {nemesis::OpKind::pause, target},
                       nemesis::Operation{nemesis::OpKind::resume, target});
  }
  double strike_after_s(const Schedule& schedule) const override {
    return drawn_by_fault<PauseLateDraws>(schedule).pause_after_s;
  }
  ClientStrike client_strike() const override { return ClientStrike::after_read; }
};

}  // namespace

const FaultModel& pause_late() {
  static const PauseLate fault;
  return fault;
}

}  // namespace rlock::chaos::faults
