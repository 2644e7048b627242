// What the faults of a cluster's members share (leader-pause, leader-kill, follower-pause,
// member-pause): n/a but on a cluster of the client's server (`--topology cluster`), and struck when
// the run log has the signal their strike sends a member. Each fault's own file says which member it
// strikes and how. Stateless; thread-safe.
#pragma once

#include <string_view>
#include <vector>

#include "chaos/faults/strikes.h"

namespace rlock::chaos {

class MemberFault : public FaultModel {
 public:
  std::string_view not_applicable(lab::Strategy) const override { return "no cluster"; }
  std::string_view not_applicable_to_client(protocol::ServerKind kind) const override { return no_cluster_of(kind); }
  bool needs_cluster() const override { return true; }
  bool struck(const Schedule&, const std::vector<lab::Event>& events) const override {
    return member_signalled(events, signal());
  }

 protected:
  // The signal its strike sends the member: SIGSTOP, SIGKILL.
  virtual std::string_view signal() const = 0;
};

}  // namespace rlock::chaos
