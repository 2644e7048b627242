// conn-refused: the target's connections to the server its lock lives on (its etcd or ZooKeeper, or
// else each Redis) are reset a drawn 0.1 to 0.5 TTLs after its read, and each reconnection is reset
// as soon as the proxy accepts it, for 0.3 to 0.6 TTLs: shorter than a session of one TTL, so that
// a ZooKeeper or etcd session outlives the outage while every request in it fails (CURATOR-678's
// connection lost during release()). Then connections are accepted again. The target works as
// under conn-drop, 1.5 to 3 TTLs. n/a where the lock is not behind the harness's proxies
// (PostgreSQL's and Hazelcast's clients, the PostgreSQL strategies).
#include <fmt/format.h>

#include "chaos/faults/strikes.h"
#include "chaos/schedule.h"
#include "chaos/trial_context.h"

namespace rlock::chaos::faults {
namespace {

// When, after the target's read, its connections are reset, and how long reconnections are refused.
struct ConnRefusedDraws {
  double strike_after_s = 0;
  double refused_s = 0;
};

class ConnRefused : public FaultModel {
 public:
  std::string_view name() const override { return "conn-refused"; }
  std::string_view not_applicable(lab::Strategy strategy) const override { return redis_unused(strategy); }
  std::string_view not_applicable_to_client(protocol::ServerKind kind) const override {
    return not_behind_proxies(kind);
  }
  void draw_work(ScheduleDraw& draw) const override {
    draw.target().work_seconds = draw.ttl_s * draw.uniform(1.5, 3.0);
  }
  void draw_rest(ScheduleDraw& draw) const override {
    double strike_after = draw.ttl_s * draw.uniform(0.1, 0.5);
    draw.keep(ConnRefusedDraws{strike_after, draw.ttl_s * draw.uniform(0.3, 0.6)});
  }
  std::vector<std::pair<std::string_view, double>> own_draws(const Schedule& schedule) const override {
    const auto& d = drawn_by_fault<ConnRefusedDraws>(schedule);
    return {{"strike_after_s", d.strike_after_s}, {"refused_s", d.refused_s}};
  }
  bool through_proxies() const override { return true; }
  double heal_after_s(const Schedule& schedule) const override {
    return drawn_by_fault<ConnRefusedDraws>(schedule).refused_s;
  }

  Strike strike(TrialContext& trial, Participants&) const override {
    return [&trial]() -> Heal {
      trial.network->refuse_lock_servers(trial.schedule.target, true);
      record_network(trial.run_log(), target_name(trial), "its server's connections reset, reconnections refused");
      return [&trial] {
        trial.network->refuse_lock_servers(trial.schedule.target, false);
        record_network(trial.run_log(), target_name(trial), "its server's connections accepted again");
      };
    };
  }
  double strike_after_s(const Schedule& schedule) const override {
    return drawn_by_fault<ConnRefusedDraws>(schedule).strike_after_s;
  }
  ClientStrike client_strike() const override { return ClientStrike::after_read; }
};

}  // namespace

const FaultModel& conn_refused() {
  static const ConnRefused fault;
  return fault;
}

}  // namespace rlock::chaos::faults
