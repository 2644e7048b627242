#include "nemesis/nemesis.h"

#include <signal.h>

#include <algorithm>

#include <fmt/format.h>

#include "host/redis_server.h"
#include "lab/host_events.h"
#include "rlock/error.h"

namespace rlock::nemesis {
namespace {

template <typename T>
T& needed(T* target, const Operation& op, std::string_view what) {
  if (target == nullptr) throw Error(fmt::format("the nemesis's {} has no {} to act on", to_string(op), what));
  return *target;
}

template <typename F>
const F& needed(const F& function, const Operation& op, std::string_view what) {
  if (!function) throw Error(fmt::format("the nemesis's {} has no {} to act on", to_string(op), what));
  return function;
}

std::size_t worker_of(const Operation& op, const Targets& t) {
  auto it = std::find(t.workers.begin(), t.workers.end(), op.target);
  if (it == t.workers.end()) throw Error(fmt::format("the nemesis's {} names no worker of the trial", to_string(op)));
  return static_cast<std::size_t>(it - t.workers.begin());
}

void signal_worker(const Operation& op, const Targets& t, int number, const char* name) {
  std::size_t worker = worker_of(op, t);
  double when = lab::wall_seconds();  // stamped before the signal left: a continued worker may log first
  if (!needed(t.signal, op, "worker")(worker, number)) return;
  t.log->record_at(when, "host", lab::EventKind::signal,
                   {{"signal", name}, {"target", op.target}, {"op", to_string(op)}});
}

void cut_worker(const Operation& op, const Targets& t, bool cut) {
  needed(t.cut, op, "network")(worker_of(op, t), cut);
  t.log->record("host", lab::EventKind::network,
                {{"action", cut ? "Redis cut off" : "Redis healed"}, {"target", op.target}, {"op", to_string(op)}});
}

host::CrashReport restart(const Operation& op, const Targets& t) {
  if (t.pair) return t.pair->restart(t.key);
  if (t.own) return host::crash_and_restart(*t.own, t.key);
  return host::crash_redis(needed(t.redis, op, "Redis"), t.key, /*start_again=*/true);
}

void signal_redis(const Operation& op, const Targets& t, int number, const char* name) {
  host::LocalRedis& server = needed(t.own, op, "Redis of its own");
  std::string address = server.address().display();
  lab::signal_and_record(*t.log, server.pid(), number, "Redis at " + address, lab::EventKind::redis_signal,
                         {{"server", address}, {"signal", name}, {"op", to_string(op)}});
}

// Pauses, resumes, kills or starts again the member the operation names, and records it.
void act_on_member(const Operation& op, const Targets& t) {
  host::ServerCluster& cluster = needed(t.cluster, op, "cluster");
  std::size_t member = 0;
  while (member < host::ServerCluster::kMembers && cluster.name(member) != op.target) ++member;
  if (member == host::ServerCluster::kMembers)
    throw Error(fmt::format("the nemesis's {} names no member of the cluster", to_string(op)));
  double when = lab::wall_seconds();  // stamped before the signal left
  auto signalled = [&](const char* signal) {
    t.log->record_at(when, "host", lab::EventKind::member_signal,
                     {{"member", op.target}, {"signal", signal}, {"op", to_string(op)}});
  };
  switch (op.kind) {
    case OpKind::pause_member: cluster.pause(member); return signalled("SIGSTOP");
    case OpKind::resume_member: cluster.resume(member); return signalled("SIGCONT");
    case OpKind::kill_member: cluster.kill(member); return signalled("SIGKILL");
    default:
      cluster.start_again(member);
      t.log->record("host", lab::EventKind::member_started, {{"member", op.target}, {"op", to_string(op)}});
  }
}

}  // namespace

void apply(const Operation& op, const Targets& t) {
  needed(t.log, op, "run log");
  nlohmann::json named{{"op", to_string(op)}};
  switch (op.kind) {
    case OpKind::pause: return signal_worker(op, t, SIGSTOP, "SIGSTOP");
    case OpKind::resume: return signal_worker(op, t, SIGCONT, "SIGCONT");
    case OpKind::kill: return signal_worker(op, t, SIGKILL, "SIGKILL");
    case OpKind::partition: return cut_worker(op, t, true);
    case OpKind::heal: return cut_worker(op, t, false);
    case OpKind::expire: {
      RedisConnection& redis = needed(t.redis, op, "Redis");
      t.log->record("host", lab::EventKind::lock_expired, {{"key", t.key.lock}, {"op", to_string(op)}});
      redis.checked({"DEL", t.key.lock});
      return;
    }
    case OpKind::restart: return lab::record_crash(*t.log, restart(op, t), named);
    case OpKind::failover:
      return lab::record_crash(*t.log, needed(t.pair, op, "failover pair").fail_over(t.key), named);
    case OpKind::stall: return signal_redis(op, t, SIGSTOP, "SIGSTOP");
    case OpKind::unstall: return signal_redis(op, t, SIGCONT, "SIGCONT");
    case OpKind::pause_member:
    case OpKind::resume_member:
    case OpKind::kill_member:
    case OpKind::start_member: return act_on_member(op, t);
  }
}

}  // namespace rlock::nemesis
