// session-expiry: Curator's two holders after a session expiry (CURATOR-206, CURATOR-604) and an
// etcd lease that runs out under its holder. As soon as the first holder has read, every byte
// between it and its etcd or ZooKeeper stays in the network (its proxy holds them; nothing is
// reset), past its session or lease: the TTL in whole seconds (etcd's leases are whole seconds)
// plus 0.75 to 1.5 TTLs, so that the server, hearing no ping or keep-alive, expires it within its
// own tick. Then the bytes go through, and the library notices on its own (the server's close, a
// reconnection that finds the session expired, a keep-alive refused) and reconnects. The harness
// holds the holder's read's answer 0.2 to 0.5 TTLs past the heal, so that it writes after it. For
// protocol clients whose lock lives on etcd or ZooKeeper; a lock on Redis has no session. It
// counts as struck when the connections were held the whole drawn time.
#include <cmath>

#include <fmt/format.h>

#include "chaos/faults/strikes.h"
#include "chaos/schedule.h"
#include "chaos/trial_context.h"

namespace rlock::chaos::faults {
namespace {

constexpr std::string_view kNoSession = "no session";

class SessionExpiry : public FaultModel {
 public:
  std::string_view name() const override { return "session-expiry"; }
  std::string_view not_applicable(lab::Strategy) const override { return kNoSession; }
  std::string_view not_applicable_to_client(protocol::ServerKind kind) const override {
    return kind == protocol::ServerKind::redis || kind == protocol::ServerKind::postgres ? kNoSession : "";
  }
  void draw_rest(ScheduleDraw& draw) const override {
    draw.schedule.pause_s = std::ceil(draw.ttl_s) + draw.ttl_s * draw.uniform(0.75, 1.5);
    draw.target().work_seconds = draw.schedule.pause_s + draw.ttl_s * draw.uniform(0.2, 0.5);
  }
  bool through_proxies() const override { return true; }

  Strike strike(TrialContext& trial, Participants&) const override {
    return [&network = *trial.network, &log = trial.run_log(), target = trial.schedule.target,
            worker = target_name(trial), server = std::string(protocol::to_string(trial.spec.client->server)),
            held_s = trial.schedule.pause_s]() -> Heal {
      network.cut_client_server(target);
      record_network(log, worker, fmt::format("its {} connections held, nothing reset", server));
      return [&network, &log, target, worker, server, held_s] {
        network.heal_client_server(target);
        record_network(log, worker, fmt::format("its {} connections let through ({:.2f} s held)", server, held_s));
      };
    };
  }
  bool struck(const Schedule& schedule, const std::vector<lab::Event>& events) const override {
    return held_whole_pause(schedule, events);
  }
};

}  // namespace

const FaultModel& session_expiry() {
  static const SessionExpiry fault;
  return fault;
}

}  // namespace rlock::chaos::faults
