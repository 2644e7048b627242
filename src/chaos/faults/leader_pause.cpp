// leader-pause: the member that leads the trial's etcd cluster stopped (SIGSTOP) once the target
// has read, for the schedule's pause (1 to 2.5 TTLs: past etcd's election timeout of 1 s at the
// TTLs etcd's clients take), then continued (SIGCONT), as a long GC pause or a stalled disk stops
// a leader. The others elect one of themselves meanwhile; the target's session and lock live on
// through them, or not. The run log says which member led before the pause and which after it.
// Only on `--topology cluster` (a single etcd has no leader to lose).
#include <algorithm>
#include <chrono>

#include "chaos/faults/strikes.h"
#include "chaos/schedule.h"
#include "chaos/trial_context.h"
#include "host/etcd_cluster.h"

namespace rlock::chaos::faults {
namespace {

using namespace std::chrono_literals;

// Records which member leads the cluster now ("" when none says), and returns it.
std::optional<std::size_t> record_leader(const lab::RunLog& log, const host::EtcdCluster& cluster) {
  std::optional<std::size_t> leader = cluster.leader(1s);
  log.record("host", lab::EventKind::cluster_leader, {{"member", leader ? cluster.name(*leader) : ""}});
  return leader;
}

class LeaderPause : public FaultModel {
 public:
  std::string_view name() const override { return "leader-pause"; }
  std::string_view not_applicable(lab::Strategy) const override { return "no cluster"; }
  std::string_view not_applicable_to_client(protocol::ServerKind kind) const override {
    return kind == protocol::ServerKind::etcd ? "" : "no etcd cluster";
  }
  bool needs_cluster() const override { return true; }

  Strike strike(TrialContext& trial, Participants& workers) const override {
    nemesis::Targets targets = nemesis_targets(trial, workers);
    return [targets]() -> Heal {
      std::optional<std::size_t> leader = record_leader(*targets.log, *targets.cluster);
      if (!leader) return {};  // no leader to pause: not struck
      std::string member = targets.cluster->name(*leader);
      nemesis::apply({nemesis::OpKind::pause_member, member}, targets);
      return [targets, member] {
        nemesis::apply({nemesis::OpKind::resume_member, member}, targets);
        targets.cluster->healthy_within(5s);
        record_leader(*targets.log, *targets.cluster);
      };
    };
  }

  // Struck: a member was stopped.
  bool struck(const Schedule&, const std::vector<lab::Event>& events) const override {
    return std::any_of(events.begin(), events.end(), [](const lab::Event& e) {
      return e.kind == lab::EventKind::member_signal && e.signal() == "SIGSTOP";
    });
  }
};

}  // namespace

const FaultModel& leader_pause() {
  static const LeaderPause fault;
  return fault;
}

}  // namespace rlock::chaos::faults
