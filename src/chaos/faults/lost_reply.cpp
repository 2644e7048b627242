// lost-reply: the first holder's release reaches the server, which applies it, but its reply never
// reaches the client, whose connections are reset: the client cannot tell a release that happened
// from one that did not, and whatever it does next (retry, report, give up) is what the trial
// judges. It waits for the target's `release` step (protocol/messages.h), so it strikes only a
// protocol client that announces it; a built-in worker announces none, nor does a client that
// never sends a step (not struck). At the step the proxy between the target and the server its lock
// lives on holds the server's bytes; the client's next bytes go through, and once the server has
// answered them the connections are reset, the answer dropped (host/fault_proxy.h). Redis answers
// each command in order on its connection: its first bytes after the command are the reply, and the
// reset comes at once. etcd's gRPC multiplexes streams (lease keep-alives, watches, pings) over one
// HTTP/2 connection, so "the first bytes back" need not be the delete's answer; the reset comes
// kSettle after the client's bytes, by when etcd has answered the delete, among whatever else it
// sent; ZooKeeper's pings share its connection likewise. It struck when the proxy dropped an answer.
#include <chrono>

#include "chaos/faults/strikes.h"
#include "chaos/schedule.h"
#include "chaos/trial_context.h"
#include "protocol/messages.h"

namespace rlock::chaos::faults {
namespace {

using namespace std::chrono_literals;

// How long after the client's bytes etcd's or ZooKeeper's answer is dropped with everything else.
constexpr auto kSettle = 250ms;

class LostReply : public FaultModel {
 public:
  std::string_view name() const override { return "lost-reply"; }
  std::string_view not_applicable(lab::Strategy) const override { return "no release step announced"; }
  bool through_proxies() const override { return true; }

  Strike strike(TrialContext& trial, Participants&) const override {
    return [&trial, settle = trial.spec.client && trial.spec.client->server != protocol::ServerKind::redis
                                 ? kSettle
                                 : 0ms]() -> Heal {
      trial.network->lose_next_reply(trial.schedule.target, settle);
      return [&trial] {
        record_if_lost(trial);
        trial.network->keep_replies(trial.schedule.target);
      };
    };
  }
  ClientStrike client_strike() const override { return ClientStrike::at_step; }
  std::string_view strike_step() const override { return protocol::kReleaseStep; }
  std::function<void()> tick(TrialContext& trial) const override {
    return [&trial] { record_if_lost(trial); };
  }

 private:
  // The strike is recorded once the proxy dropped the answer (by the tick, or at the latest by the
  // heal), not when it was armed.
  static void record_if_lost(TrialContext& trial) {
    if (!trial.network || trial.network->take_replies_lost(trial.schedule.target) == 0) return;
    record_network(trial.run_log(), target_name(trial), "its release's reply lost, its connections reset");
  }
};

}  // namespace

const FaultModel& lost_reply() {
  static const LostReply fault;
  return fault;
}

}  // namespace rlock::chaos::faults
