// leader-kill: the member that leads the trial's etcd cluster or ZooKeeper ensemble killed (SIGKILL) once the target
// has read, and started again on its data the schedule's pause later (1 to 2.5 TTLs), as a crashed host's etcd comes
// back. The others elect one of themselves; the member that comes back catches up from the new leader. Only on
// `--topology cluster`.
#include "chaos/faults/member_fault.h"
#include "chaos/trial_context.h"

namespace rlock::chaos::faults {
namespace {

class LeaderKill : public MemberFault {
 public:
  std::string_view name() const override { return "leader-kill"; }
  std::string_view signal() const override { return "SIGKILL"; }

  Strike strike(TrialContext& trial, Participants& workers) const override {
    return strike_leader(nemesis_targets(trial, workers), nemesis::OpKind::kill_member, nemesis::OpKind::start_member);
  }
};

}  // namespace

const FaultModel& leader_kill() {
  static const LeaderKill fault;
  return fault;
}

}  // namespace rlock::chaos::faults
