// kill: the target killed (SIGKILL). A built-in worker is killed at a drawn point from its read to
// its release: before its write (the increment lost, unknown to the checker) or after it (the
// increment in, the lock held to its TTL); it holds its lock a drawn 5 to 30 ms after its write.
// A protocol client is killed whole (its process group) just after its read's answer is sent.
#include "chaos/faults/strikes.h"
#include "chaos/schedule.h"
#include "chaos/trial_context.h"

namespace rlock::chaos::faults {
namespace {

// How long after the target's read it is killed.
struct KillDraws {
  double strike_after_s = 0;
};

class Kill : public FaultModel {
 public:
  std::string_view name() const override { return "kill"; }

  void draw_rest(ScheduleDraw& draw) const override {
    lab::WorkerPlan& target = draw.target();
    target.hold_seconds = draw.uniform(0.005, 0.03);
    draw.keep(KillDraws{draw.uniform(0, target.work_seconds + target.hold_seconds)});
  }
  std::vector<std::pair<std::string_view, double>> own_draws(const Schedule& schedule) const override {
    return {{"strike_after_s", strike_after_s(schedule)}};
  }

  Strike strike(TrialContext& trial, Participants& workers) const override {
    return strike_with(nemesis_targets(trial, workers), {nemesis::OpKind::kill, target_name(trial)});
  }
  double strike_after_s(const Schedule& schedule) const override {
    return drawn_by_fault<KillDraws>(schedule).strike_after_s;
  }
  ClientStrike client_strike() const override { return ClientStrike::after_answer; }
};

}  // namespace

const FaultModel& kill() {
  static const Kill fault;
  return fault;
}

}  // namespace rlock::chaos::faults
