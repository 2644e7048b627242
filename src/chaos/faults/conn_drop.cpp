// conn-drop: the server closes the target's connections in the middle of its hold, once, a drawn
// 0.1 to 0.5 TTLs after its read. Redis closes them itself (CLIENT KILL ADDR, each connection
// named by the address its fault proxy connected from), on each server the lock lives on; etcd and
// ZooKeeper have no such command, so the proxy between the client and its etcd or ZooKeeper resets
// the session's connection at both ends. The target works as under slow, 1.5 to 3 TTLs, so that
// only a watchdog or a session that outlives the drop keeps its lock; a lock that notices its loss
// must stop the holder before it writes. A built-in worker and a protocol client alike; a
// PostgreSQL strategy's lock is not on Redis.
#include <fmt/format.h>

#include "chaos/faults/strikes.h"
#include "chaos/schedule.h"
#include "chaos/trial_context.h"

namespace rlock::chaos::faults {
namespace {

// How long after the target's read its connections are dropped.
struct ConnDropDraws {
  double strike_after_s = 0;
};

class ConnDrop : public FaultModel {
 public:
  std::string_view name() const override { return "conn-drop"; }
  std::string_view not_applicable(lab::Strategy strategy) const override { return redis_unused(strategy); }
  void draw_work(ScheduleDraw& draw) const override {
    draw.target().work_seconds = draw.ttl_s * draw.uniform(1.5, 3.0);
  }
  void draw_rest(ScheduleDraw& draw) const override { draw.keep(ConnDropDraws{draw.ttl_s * draw.uniform(0.1, 0.5)}); }
  std::vector<std::pair<std::string_view, double>> own_draws(const Schedule& schedule) const override {
    return {{"strike_after_s", strike_after_s(schedule)}};
  }
  bool through_proxies() const override { return true; }

  Strike strike(TrialContext& trial, Participants&) const override {
    return [network = trial.network.get(), target = trial.schedule.target, &log = trial.run_log(),
            worker = trial.schedule.workers[trial.schedule.target].name,
            on_redis = !trial.spec.client || trial.spec.client->server == protocol::ServerKind::redis]() -> Heal {
      if (on_redis) {
        long long killed = network->kill_redis_connections(target);
        record_network(log, worker, fmt::format("CLIENT KILL: {} of its Redis connections closed", killed));
      } else {
        network->reset_client_server(target);
        record_network(log, worker, "its server's connections reset");
      }
      return {};
    };
  }
  double strike_after_s(const Schedule& schedule) const override {
    return drawn_by_fault<ConnDropDraws>(schedule).strike_after_s;
  }
  ClientStrike client_strike() const override { return ClientStrike::after_read; }
};

}  // namespace

const FaultModel& conn_drop() {
  static const ConnDrop fault;
  return fault;
}

}  // namespace rlock::chaos::faults
