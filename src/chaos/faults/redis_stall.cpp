// redis-stall: the Redis the lock lives on stopped (SIGSTOP) as soon as the target has read, for the
// schedule's pause, then continued (SIGCONT); its expiry runs on its own clock, which goes on
// meanwhile. The target's work takes half its TTL or more, and still ends well inside it. A lock of
// one Redis lives on a Redis of the trial's own (stopping the shared one would stall every job); a
// lock on Redlock's three servers loses the first of them for that long.
#include <filesystem>

#include <fmt/format.h>

#include "chaos/faults/strikes.h"
#include "chaos/needed_servers.h"
#include "chaos/schedule.h"
#include "chaos/trial_context.h"

namespace rlock::chaos::faults {
namespace {

class RedisStall : public FaultModel {
 public:
  std::string_view name() const override { return "redis-stall"; }
  std::string_view not_applicable(lab::Strategy strategy) const override { return redis_unused(strategy); }
  std::string_view not_applicable_to_client(protocol::ServerKind kind) const override { return redis_unused(kind); }
  void draw_work(ScheduleDraw& draw) const override {
    draw.target().work_seconds = draw.ttl_s * draw.uniform(0.5, 0.8);
  }
  bool strikes_server() const override { return true; }
  bool runs_own_redis() const override { return true; }

  void set_up(TrialContext& trial) const override {
    if (on_three_servers(trial.spec)) return;
    std::filesystem::create_directories(trial.dir.root());  // for the server's log
    int port = failover_port_of(trial.setup(), trial.job.number);
    needing("the trial's Redis", fmt::format("127.0.0.1:{}", port), [&] { trial.own.emplace(port, trial.dir.root()); });
  }

  // One Redis: the trial's own; three: the first of the job's (nemesis_targets).
  Strike strike(TrialContext& trial, Participants& workers) const override {
    return strike_with(nemesis_targets(trial, workers), {nemesis::OpKind::stall},
                       nemesis::Operation{nemesis::OpKind::unstall});
  }
};

}  // namespace

const FaultModel& redis_stall() {
  static const RedisStall fault;
  return fault;
}

}  // namespace rlock::chaos::faults
