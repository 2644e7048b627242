#include "chaos/nemesis.h"

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <utility>

#include "host/child.h"
#include "host/redis_server.h"
#include "chaos/netns_job.h"
#include "lab/host_events.h"
#include "rlock/error.h"

namespace rlock {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr auto kTrialLimit = 10s;  // a trial still running then is killed, its workers' outcomes unknown

void signal_worker(const RunLog& log, pid_t pid, int number, const char* name, const std::string& worker) {
  try {
    signal_and_record(log, pid, number, worker, EventKind::signal, {{"signal", name}, {"target", worker}});
  } catch (const Error&) {
    // the worker has just exited: nothing to stop or continue
  }
}

Clock::duration seconds(double s) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

// The workers' own faults: a pause (healed by SIGCONT), a kill; nothing for slow and net-delay.
Strike worker_strike(const TrialSpec& spec, const RunLog& log, pid_t pid, const std::string& worker) {
  if (spec.fault == Fault::kill) {
    return [&log, pid, worker]() -> Heal {
      signal_worker(log, pid, SIGKILL, "SIGKILL", worker);
      return {};
    };
  }
  if (spec.fault != Fault::pause) return {};
  return [&log, pid, worker]() -> Heal {
    signal_worker(log, pid, SIGSTOP, "SIGSTOP", worker);
    return [&log, pid, worker] { signal_worker(log, pid, SIGCONT, "SIGCONT", worker); };
  };
}

void record_network(const RunLog& log, const std::string& worker, const std::string& action) {
  log.record("host", EventKind::network, {{"action", action}, {"target", worker}});
}

// A stall of `server`: SIGSTOP now, SIGCONT when healed. Its expiry runs on its own clock, which
// goes on meanwhile.
Strike stall(LocalRedis& server, const RunLog& log) {
  return [&server, &log]() -> Heal {
    pid_t pid = local_redis_process(server.connection()).pid;
    std::string name = "Redis at " + server.address().display();
    nlohmann::json fields{{"server", server.address().display()}};
    fields["signal"] = "SIGSTOP";
    signal_and_record(log, pid, SIGSTOP, name, EventKind::redis_signal, fields);
    return [&log, pid, name, fields]() mutable {
      fields["signal"] = "SIGCONT";
      signal_and_record(log, pid, SIGCONT, name, EventKind::redis_signal, fields);
    };
  };
}

// partition: the worker cut off from Redis by `cut`, until `heal`.
Strike cut_off(const std::function<void()>& cut, const std::function<void()>& heal, const RunLog& log,
               const std::string& worker) {
  return [cut, heal, &log, worker]() -> Heal {
    cut();
    record_network(log, worker, "Redis cut off");
    return [heal, &log, worker] {
      heal();
      record_network(log, worker, "Redis healed");
    };
  };
}

Strike network_strike(const TrialSpec& spec, TrialNetwork& network, std::size_t target, const std::string& worker,
                      const RunLog& log) {
  if (spec.fault == Fault::partition) {
    return cut_off([&network, target] { network.cut_redis(target); }, [&network, target] { network.heal_redis(target); },
                   log, worker);
  }
  if (spec.fault != Fault::delayed_write) return {};
  return [&network, &log, target, worker]() -> Heal {
    network.hold_writes(target);
    record_network(log, worker, "what it sends PostgreSQL held");
    return [&network, &log, target, worker] {
      network.deliver_writes(target);
      record_network(log, worker, "what it sent PostgreSQL delivered");
    };
  };
}

}  // namespace

std::vector<WorkerExit> supervise(const TrialSpec& spec, const Schedule& schedule, const std::vector<pid_t>& pids,
                                  const LabDir& dir, const RunLog& log, const Nemesis& nemesis,
                                  const std::function<bool()>& stopped) {
  std::vector<WorkerExit> exits;
  for (const WorkerSchedule& w : schedule.workers) exits.push_back(WorkerExit{w.name, w.amount, false, 0});
  std::vector<bool> done(pids.size(), false);
  auto ended = [&](std::size_t i, const ChildExit& exit) {
    done[i] = true;
    exits[i].exited = exit.exited();
    exits[i].code = exit.code();
  };
  const WorkerSchedule& target = schedule.workers[schedule.target];
  Strike strike = nemesis.strike ? nemesis.strike : worker_strike(spec, log, pids[schedule.target], target.name);
  Heal heal;
  Clock::time_point heal_at{}, tick_at{};
  auto strike_at = Clock::time_point::max();  // once the target has read
  bool later = spec.fault == Fault::kill || spec.fault == Fault::failover;
  auto deadline = Clock::now() + kTrialLimit;

  for (;;) {
    for (std::size_t i = 0; i < pids.size(); ++i) {
      if (done[i]) continue;
      if (std::optional<ChildExit> exit = try_reap(pids[i])) ended(i, *exit);
    }
    bool all_done = std::all_of(done.begin(), done.end(), [](bool d) { return d; });
    if (heal && (all_done || Clock::now() >= heal_at)) {
      std::exchange(heal, {})();
    }
    if (all_done) return exits;
    if (strike && strike_at == Clock::time_point::max() && !done[schedule.target] &&
        std::filesystem::exists(dir.read_marker(target.name))) {
      strike_at = Clock::now() + seconds(later ? schedule.strike_after_s : 0);
    }
    if (strike && Clock::now() >= strike_at) {  // unless the target finished first: then nothing strikes
      Strike now = std::exchange(strike, {});
      if (!done[schedule.target]) {
        heal = now();
        heal_at = Clock::now() + seconds(nemesis.heal_after_s);
      }
    }
    if (nemesis.tick && Clock::now() >= tick_at) {
      nemesis.tick();
      tick_at = Clock::now() + 10ms;
    }
    if (bool late = Clock::now() > deadline; late || (stopped && stopped())) {
      for (std::size_t i = 0; i < pids.size(); ++i) {
        if (done[i]) continue;
        ended(i, kill_and_reap(pids[i]));
        exits[i].stuck = late;
      }
    }
    std::this_thread::sleep_for(2ms);
  }
}

bool fault_struck(const TrialSpec& spec, const Schedule& schedule, const std::vector<Event>& events) {
  const std::string& target = schedule.workers[schedule.target].name;
  return std::any_of(events.begin(), events.end(), [&](const Event& e) {
    if (e.who == "host") return true;
    if (spec.fault == Fault::net_delay) return true;  // any worker's step went through the delayed network
    bool target_read = (spec.fault == Fault::slow || spec.fault == Fault::clock_skew) && e.who == target;
    return target_read && e.kind == EventKind::read;
  });
}

Nemesis nemesis_for(const TrialSpec& spec, const Schedule& schedule, Job& job, std::optional<FailoverPair>& pair,
                    std::optional<LocalRedis>& own, TrialNetwork* network, const LockKey& key, const RunLog& log) {
  Nemesis nemesis;
  // A held write is held from the read on, and delivered pause_s after the write left.
  nemesis.heal_after_s = schedule.pause_s + (spec.fault == Fault::delayed_write ? schedule.workers[schedule.target].work_s : 0);
  if (network && spec.fault == Fault::net_delay) {
    std::vector<double> latency;
    for (const WorkerSchedule& w : schedule.workers) latency.push_back(w.latency_ms);
    nemesis.tick = [network, latency] { network->jitter(latency); };
  }
  if (job.lab && spec.fault == Fault::partition) {
    JobLab& lab = *job.lab;
    std::size_t target = schedule.target;
    nemesis.strike = cut_off([&lab, target] { lab.cut_redis(target); }, [&lab, target] { lab.heal_redis(target); }, log,
                             schedule.workers[target].name);
    return nemesis;
  }
  if (network) {
    nemesis.strike = network_strike(spec, *network, schedule.target, schedule.workers[schedule.target].name, log);
    return nemesis;
  }
  if (spec.fault == Fault::redis_stall) {
    nemesis.strike = stall(on_three_servers(spec) ? *job.redlock.front() : *own, log);
    return nemesis;
  }
  if (!strikes_server(spec.fault)) return nemesis;
  if (on_three_servers(spec)) {
    nemesis.strike = [&server = *job.redlock.front(), &key, &log] {
      record_crash(log, crash_server(server.connection(), key,
                                     {[&] { server.kill(); }, [&]() -> RedisConnection& { server.restart(); return server.connection(); }}));
      return Heal{};
    };
  } else if (pair) {
    nemesis.strike = [&] { record_crash(log, pair->fail_over(key)); return Heal{}; };
  } else {
    nemesis.strike = [&] { record_crash(log, crash_redis(job.redis, key, /*start_again=*/true)); return Heal{}; };
  }
  return nemesis;
}

}  // namespace rlock
