// follower-pause: a member that does not lead the trial's etcd cluster or ZooKeeper ensemble (the
// first such, e2 when e1 leads) stopped (SIGSTOP) once the target has read, for the schedule's
// pause (1 to 2.5 TTLs), then continued, as Jepsen's pause nemesis stops an etcd process. The
// leader keeps its quorum with the other follower; a client whose connection is to the paused one
// hears nothing from it meanwhile, its session's renewals with it. Only on `--topology cluster`.
#include "chaos/faults/member_fault.h"
#include "chaos/trial_context.h"

namespace rlock::chaos::faults {
namespace {

class FollowerPause : public MemberFault {
 public:
  std::string_view name() const override { return "follower-pause"; }
  std::string_view signal() const override { return "SIGSTOP"; }

  Strike strike(TrialContext& trial, Participants& workers) const override {
    return strike_follower(nemesis_targets(trial, workers), nemesis::OpKind::pause_member,
                           nemesis::OpKind::resume_member);
  }
};

}  // namespace

const FaultModel& follower_pause() {
  static const FollowerPause fault;
  return fault;
}

}  // namespace rlock::chaos::faults
