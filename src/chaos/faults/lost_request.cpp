// lost-request: the first holder's release never reaches the server: the proxy between the target
// and the server its lock lives on keeps the client's next bytes, sends them nowhere and resets the
// client's connections, so the client cannot tell a release that never happened from a lost reply
// (lost-reply, its counterpart: applied, the answer dropped). The lock stays on the server until its
// lease ends; whatever the client does next (retry, report, give up) is what the trial judges. It
// waits for the target's `release` step (protocol/messages.h) as lost-reply does, and a history arms
// it at any step (`lost-request:A on acquire#2`). etcd's gRPC multiplexes streams over one HTTP/2
// connection: its next bytes may be a lease keep-alive, lost in the request's place, and the request
// itself goes on the connection the client makes again (as under conn-drop). It struck when the
// proxy dropped the client's bytes. n/a where the lock is not behind the harness's proxies.
#include "chaos/faults/proxy_loss.h"
#include "chaos/schedule.h"

namespace rlock::chaos::faults {
namespace {

class LostRequest : public ProxyLoss {
 public:
  std::string_view name() const override { return "lost-request"; }
  std::string_view not_applicable_to_client(protocol::ServerKind kind) const override {
    return not_behind_proxies(kind);
  }

 protected:
  void arm(TrialContext& trial) const override { trial.network->lose_next_request(trial.schedule.target); }
  void disarm(TrialContext& trial) const override { trial.network->keep_requests(trial.schedule.target); }
  std::uint64_t take_lost(TrialContext& trial) const override {
    return trial.network->take_requests_lost(trial.schedule.target);
  }
  std::string_view what_was_lost() const override {
    return "its request never reached the server, its connections reset";
  }
};

}  // namespace

const FaultModel& lost_request() {
  static const LostRequest fault;
  return fault;
}

}  // namespace rlock::chaos::faults
