// delayed-write: Kleppmann's write that arrives late. From the target's read on, what it sends
// PostgreSQL stays in the network (its proxy), and is delivered the schedule's pause after its
// write left. A protocol client's database is the harness, which holds its first write that long
// before it applies it.
#include "chaos/faults/strikes.h"
#include "chaos/schedule.h"
#include "chaos/trial_context.h"

namespace rlock::chaos::faults {
namespace {

class DelayedWrite : public FaultModel {
 public:
  std::string_view name() const override { return "delayed-write"; }
  bool through_proxies() const override { return true; }

  Strike strike(TrialContext& trial, Participants&) const override {
    return [&network = *trial.network, &log = trial.run_log(), target = trial.schedule.target,
            worker = trial.schedule.workers[trial.schedule.target].name]() -> Heal {
      network.hold_writes(target);
      record_network(log, worker, "what it sends PostgreSQL held");
      return [&network, &log, target, worker] {
        network.deliver_writes(target);
        record_network(log, worker, "what it sent PostgreSQL delivered");
      };
    };
  }
  // Held from the read on, delivered the pause after the write left.
  double heal_after_s(const Schedule& schedule) const override {
    return schedule.pause_s + schedule.workers[schedule.target].work_seconds;
  }
  std::optional<double> held_write_s(const Schedule& schedule) const override { return schedule.pause_s; }
};

}  // namespace

const FaultModel& delayed_write() {
  static const DelayedWrite fault;
  return fault;
}

}  // namespace rlock::chaos::faults
