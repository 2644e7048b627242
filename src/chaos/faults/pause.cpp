// pause: the target stopped (SIGSTOP) once it has read, for the schedule's pause (1 to 2.5 TTLs),
// then continued (SIGCONT), as a long GC pause stops a holder mid-work. A built-in worker is
// stopped at its read; a protocol client just before its read's answer is sent, which then waits in
// the pipe: stopped after it, the client could write first, which the built-in holder, pausing in
// its work, never does. A protocol client is stopped whole (its process group).
#include "chaos/faults/strikes.h"
#include "chaos/schedule.h"
#include "chaos/trial_context.h"

namespace rlock::chaos::faults {
namespace {

class Pause : public FaultModel {
 public:
  std::string_view name() const override { return "pause"; }
  std::string_view not_applicable(lab::Strategy strategy) const override { return no_lock_held(strategy); }

  Strike strike(TrialContext& trial, Participants& workers) const override {
    const std::string& target = target_name(trial);
    return strike_with(nemesis_targets(trial, workers), {nemesis::OpKind::pause, target},
                       nemesis::Operation{nemesis::OpKind::resume, target});
  }
  ClientStrike client_strike() const override { return ClientStrike::before_answer; }
};

}  // namespace

const FaultModel& pause() {
  static const Pause fault;
  return fault;
}

}  // namespace rlock::chaos::faults
