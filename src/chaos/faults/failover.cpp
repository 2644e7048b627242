// failover: the primary the lock lives on dies and its replica takes over. A lock of one Redis
// lives on a primary and replica of the trial's own (the job's failover ports), the replica's link
// cut from the trial's start for a drawn 0 to 2 TTLs: whether the lock had reached the replica when
// the primary died is measured then, and splits the table's cell in two. The target's work takes
// half its TTL or more, and still ends well inside it; a built-in worker's primary dies at a drawn
// point of its work, by when the link may be back, a protocol client's as soon as it has read. A
// lock on Redlock's three servers loses the first of them, which starts again empty.
#include <chrono>
#include <filesystem>

#include <fmt/format.h>

#include "chaos/faults/strikes.h"
#include "chaos/needed_servers.h"
#include "chaos/schedule.h"
#include "chaos/trial_context.h"

namespace rlock::chaos::faults {
namespace {

// How long after the target's read the primary fails over, and how long the replica's link is cut
// from the trial's start.
struct FailoverDraws {
  double strike_after_s = 0;
  double replica_lag_s = 0;
};

class Failover : public FaultModel {
 public:
  std::string_view name() const override { return "failover"; }
  std::string_view not_applicable(lab::Strategy strategy) const override { return redis_unused(strategy); }
  std::string_view not_applicable_to_client(protocol::ServerKind kind) const override { return redis_unused(kind); }

  void draw_work(ScheduleDraw& draw) const override {
    draw.target().work_seconds = draw.ttl_s * draw.uniform(0.5, 0.8);
  }
  void draw_rest(ScheduleDraw& draw) const override {
    double replica_lag_s = draw.ttl_s * draw.uniform(0, 2.0);
    draw.keep(FailoverDraws{draw.uniform(0, draw.target().work_seconds), replica_lag_s});
  }
  std::vector<std::pair<std::string_view, double>> own_draws(const Schedule& schedule) const override {
    FailoverDraws drawn = drawn_by_fault<FailoverDraws>(schedule);
    return {{"strike_after_s", drawn.strike_after_s}, {"replica_lag_s", drawn.replica_lag_s}};
  }

  bool strikes_server() const override { return true; }
  bool runs_own_redis() const override { return true; }
  bool splits_by_replica() const override { return true; }

  void set_up(TrialContext& trial) const override {
    if (on_three_servers(trial.spec)) return;
    std::filesystem::create_directories(trial.dir.root());  // for the servers' logs
    int port = failover_port_of(trial.setup(), trial.job.number);
    needing("the failover pair", fmt::format("127.0.0.1:{}", port), [&] {
      trial.pair.emplace(port, trial.dir.root());
      hold_replication(trial);
    });
  }
  // Clients start before the clock, a JVM's for seconds: the replica's lag counts from here.
  void clock_started(TrialContext& trial) const override {
    if (trial.pair) hold_replication(trial);
  }

  // Three servers: the first restarts, empty, as a failover to a lagging replica would leave it.
  Strike strike(TrialContext& trial, Participants& workers) const override {
    bool three = on_three_servers(trial.spec);
    return strike_with(nemesis_targets(trial, workers), {three ? nemesis::OpKind::restart : nemesis::OpKind::failover});
  }
  double strike_after_s(const Schedule& schedule) const override {
    return drawn_by_fault<FailoverDraws>(schedule).strike_after_s;
  }

 private:
  static void hold_replication(TrialContext& trial) {
    double lag_s = drawn_by_fault<FailoverDraws>(trial.schedule).replica_lag_s;
    trial.pair->hold_replication(std::chrono::duration<double>(lag_s));
  }
};

}  // namespace

const FaultModel& failover() {
  static const Failover fault;
  return fault;
}

}  // namespace rlock::chaos::faults
