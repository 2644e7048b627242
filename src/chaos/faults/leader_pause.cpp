// leader-pause: the member that leads the trial's etcd cluster or ZooKeeper ensemble stopped
// (SIGSTOP) once the target has read, for the schedule's pause (1 to 2.5 TTLs: past etcd's election
// timeout of 1 s, and the 1 s after which a ZooKeeper follower leaves a silent leader, at the TTLs
// their clients take), then continued (SIGCONT), as a long GC pause or a stalled disk stops a
// leader. The others elect one of themselves meanwhile; the target's session and lock live on
// through them, or not. Only on `--topology cluster` (a single server has no leader to lose).
#include "chaos/faults/member_fault.h"
#include "chaos/trial_context.h"

namespace rlock::chaos::faults {
namespace {

class LeaderPause : public MemberFault {
 public:
  std::string_view name() const override { return "leader-pause"; }
  std::string_view signal() const override { return "SIGSTOP"; }

  Strike strike(TrialContext& trial, Participants& workers) const override {
    return strike_leader(nemesis_targets(trial, workers), nemesis::OpKind::pause_member,
                         nemesis::OpKind::resume_member);
  }
};

}  // namespace

const FaultModel& leader_pause() {
  static const LeaderPause fault;
  return fault;
}

}  // namespace rlock::chaos::faults
