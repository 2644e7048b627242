// member-pause: the target's own member of the trial's etcd cluster or ZooKeeper ensemble (first in
// the list it is given, member i mod 3 of worker i: the one an adapter that takes the first alone is
// connected to) stopped (SIGSTOP) once the target has read, for the schedule's pause (1 to 2.5
// TTLs), then continued, leader or not: as Jepsen's pause nemesis stops the etcd process its
// clients talk to. Its session's renewals wait meanwhile; the others' go on through their own
// members. The target's work takes 0.5 to 1.5 TTLs, as a Jepsen lock-set client's takes up to its
// lease's 2 s. Only on `--topology cluster`.
#include "chaos/faults/member_fault.h"
#include "chaos/schedule.h"
#include "chaos/trial_context.h"

namespace rlock::chaos::faults {
namespace {

class MemberPause : public MemberFault {
 public:
  std::string_view name() const override { return "member-pause"; }
  std::string_view signal() const override { return "SIGSTOP"; }

  void draw_work(ScheduleDraw& draw) const override {
    draw.target().work_seconds = draw.ttl_s * draw.uniform(0.5, 1.5);
  }

  Strike strike(TrialContext& trial, Participants& workers) const override {
    return strike_own_member(nemesis_targets(trial, workers), trial.schedule.target, nemesis::OpKind::pause_member,
                             nemesis::OpKind::resume_member);
  }
};

}  // namespace

const FaultModel& member_pause() {
  static const MemberPause fault;
  return fault;
}

}  // namespace rlock::chaos::faults
