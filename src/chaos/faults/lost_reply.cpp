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

#include "chaos/faults/proxy_loss.h"
#include "chaos/schedule.h"

namespace rlock::chaos::faults {
namespace {

using namespace std::chrono_literals;

// How long after the client's bytes etcd's or ZooKeeper's answer is dropped with everything else.
constexpr auto kSettle = 250ms;

class LostReply : public ProxyLoss {
 public:
  std::string_view name() const override { return "lost-reply"; }

 protected:
  void arm(TrialContext& trial) const override {
    bool multiplexed = trial.spec.client && trial.spec.client->server != protocol::ServerKind::redis;
    trial.network->lose_next_reply(trial.schedule.target, multiplexed ? kSettle : 0ms);
  }
  void disarm(TrialContext& trial) const override { trial.network->keep_replies(trial.schedule.target); }
  std::uint64_t take_lost(TrialContext& trial) const override {
    return trial.network->take_replies_lost(trial.schedule.target);
  }
  std::string_view what_was_lost() const override { return "its release's reply lost, its connections reset"; }
};

}  // namespace

const FaultModel& lost_reply() {
  static const LostReply fault;
  return fault;
}

}  // namespace rlock::chaos::faults
