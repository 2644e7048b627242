#include "chaos/faults/strikes.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <iterator>

#include "chaos/schedule.h"
#include "chaos/trial_context.h"
#include "chaos/trial_loop.h"
#include "host/server_cluster.h"
#include "lab/event.h"
#include "lab/host_events.h"
#include "rlock/error.h"

namespace rlock::chaos {

std::string_view redis_unused(lab::Strategy strategy) { return lab::in_postgres(strategy) ? "Redis unused" : ""; }

std::string_view redis_unused(protocol::ServerKind kind) {
  return kind == protocol::ServerKind::redis ? "" : "Redis unused";
}

std::string_view not_behind_proxies(protocol::ServerKind kind) {
  return kind == protocol::ServerKind::postgres || kind == protocol::ServerKind::hazelcast
             ? "its server is not behind the harness's proxies"
             : "";
}

std::string_view no_cluster_of(protocol::ServerKind kind) {
  return has_cluster(kind) ? "" : "no cluster of its server";
}

std::string_view no_lock_held(lab::Strategy strategy) { return lab::holds_lock(strategy) ? "" : "no lock held"; }

nemesis::Targets nemesis_targets(TrialContext& trial, Participants& workers) {
  nemesis::Targets targets{&trial.run_log(), trial.key};
  for (const lab::WorkerPlan& w : trial.schedule.workers) targets.workers.push_back(w.name);
  targets.signal = [&workers](std::size_t worker, int number) { return workers.signal(worker, number); };
  targets.redis = &trial.job.redis;
  if (trial.pair) targets.pair = &*trial.pair;
  targets.cluster = trial.cluster;
  if (on_three_servers(trial.spec)) {
    targets.own = trial.job.redlock.front().get();
  } else if (trial.own) {
    targets.own = &*trial.own;
  }
  return targets;
}

Strike strike_with(nemesis::Targets targets, nemesis::Operation strike, std::optional<nemesis::Operation> heal) {
  return [targets = std::move(targets), strike = std::move(strike), heal = std::move(heal)]() -> Heal {
    nemesis::apply(strike, targets);
    if (!heal) return {};
    return [targets, heal] { nemesis::apply(*heal, targets); };
  };
}

namespace {

// Records which member leads the cluster now ("" when none says), and returns it.
std::optional<std::size_t> record_leader(const lab::RunLog& log, const host::ServerCluster& cluster) {
  std::optional<std::size_t> leader = cluster.leader(std::chrono::seconds(1));
  log.record("host", lab::EventKind::cluster_leader, {{"member", leader ? cluster.name(*leader) : ""}});
  return leader;
}

// A strike on the member `pick` chooses by the leader, healed once the cluster serves again.
Strike strike_member(nemesis::Targets targets, nemesis::OpKind strike, nemesis::OpKind heal,
                     std::function<std::size_t(std::size_t leader)> pick) {
  return [targets = std::move(targets), strike, heal, pick]() -> Heal {
    host::ServerCluster& cluster = *targets.cluster;
    std::optional<std::size_t> leader = record_leader(*targets.log, cluster);
    if (!leader) return {};
    std::string member = cluster.name(pick(*leader));
    nemesis::apply({strike, member}, targets);
    return [targets, heal, member] {
      nemesis::apply({heal, member}, targets);
      targets.cluster->healthy_within(std::chrono::seconds(5));
      record_leader(*targets.log, *targets.cluster);
    };
  };
}

}  // namespace

Strike strike_leader(nemesis::Targets targets, nemesis::OpKind strike, nemesis::OpKind heal) {
  return strike_member(std::move(targets), strike, heal, [](std::size_t leader) { return leader; });
}

Strike strike_follower(nemesis::Targets targets, nemesis::OpKind strike, nemesis::OpKind heal) {
  return strike_member(std::move(targets), strike, heal,
                       [](std::size_t leader) { return leader == 0 ? std::size_t{1} : std::size_t{0}; });
}

Strike strike_own_member(nemesis::Targets targets, std::size_t worker, nemesis::OpKind strike, nemesis::OpKind heal) {
  return strike_member(std::move(targets), strike, heal,
                       [worker](std::size_t) { return worker % host::ServerCluster::kMembers; });
}

bool member_signalled(const std::vector<lab::Event>& events, std::string_view signal) {
  return std::any_of(events.begin(), events.end(), [&](const lab::Event& e) {
    return e.who == "host" && e.kind == lab::EventKind::member_signal && e.signal() == signal;
  });
}

const std::string& target_name(const TrialContext& trial) { return trial.schedule.workers[trial.schedule.target].name; }

void record_network(const lab::RunLog& log, const std::string& worker, const std::string& action) {
  log.record("host", lab::EventKind::network, {{"action", action}, {"target", worker}});
}

bool target_read(const Schedule& schedule, const std::vector<lab::Event>& events) {
  const std::string& target = schedule.workers[schedule.target].name;
  return std::any_of(events.begin(), events.end(),
                     [&](const lab::Event& e) { return e.who == target && e.kind == lab::EventKind::read; });
}

std::string libfaketime() {
  for (const char* path :
       {"/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1", "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
        "/usr/lib/faketime/libfaketime.so.1"}) {
    if (std::filesystem::exists(path)) return path;
  }
  throw Error("no libfaketime.so.1 to set a client's clock (apt-get install libfaketime)");
}

bool held_whole_pause(const Schedule& schedule, const std::vector<lab::Event>& events) {
  const std::string& target = schedule.workers[schedule.target].name;
  auto on_target = [&](const lab::Event& e) {
    return e.who == "host" && e.kind == lab::EventKind::network && e.target() == target;
  };
  auto held = std::find_if(events.begin(), events.end(), on_target);
  if (held == events.end()) return false;
  auto healed = std::find_if(std::next(held), events.end(), on_target);
  constexpr double kLogRounding = 1e-6;  // events.jsonl keeps times to the microsecond
  return healed != events.end() && healed->t - held->t >= schedule.pause_s - kLogRounding;
}

}  // namespace rlock::chaos
