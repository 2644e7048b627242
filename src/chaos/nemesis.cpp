#include "chaos/nemesis.h"

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "host/child.h"
#include "host/redis_server.h"
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

}  // namespace

std::vector<WorkerExit> supervise(const TrialSpec& spec, const Schedule& schedule, const std::vector<pid_t>& pids,
                                  const LabDir& dir, const RunLog& log, const std::function<void()>& host_fault,
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
  pid_t target_pid = pids[schedule.target];
  bool struck = false, paused = false;
  Clock::time_point resume_at{};
  auto strike_at = Clock::time_point::max();  // kill and failover: when, once the target has read
  bool later = spec.fault == Fault::kill || spec.fault == Fault::failover;
  auto deadline = Clock::now() + kTrialLimit;

  for (;;) {
    for (std::size_t i = 0; i < pids.size(); ++i) {
      if (done[i]) continue;
      if (std::optional<ChildExit> exit = try_reap(pids[i])) ended(i, *exit);
    }
    if (std::all_of(done.begin(), done.end(), [](bool d) { return d; })) return exits;
    if (!struck && spec.fault != Fault::none && spec.fault != Fault::slow && !done[schedule.target] &&
        std::filesystem::exists(dir.read_marker(target.name))) {
      struck = true;
      if (later) {
        strike_at = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(schedule.strike_after_s));
      } else if (host_fault) {
        host_fault();
      } else {
        signal_worker(log, target_pid, SIGSTOP, "SIGSTOP", target.name);
        paused = true;
        resume_at = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(schedule.pause_s));
      }
    }
    if (Clock::now() >= strike_at) {  // unless the target finished first: then nothing strikes
      strike_at = Clock::time_point::max();
      if (!done[schedule.target] && host_fault) host_fault();
      if (!done[schedule.target] && !host_fault) signal_worker(log, target_pid, SIGKILL, "SIGKILL", target.name);
    }
    if (paused && Clock::now() >= resume_at) {
      signal_worker(log, target_pid, SIGCONT, "SIGCONT", target.name);
      paused = false;
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
    return e.who == "host" || (spec.fault == Fault::slow && e.who == target && e.kind == EventKind::read);
  });
}

std::function<void()> host_fault_for(const TrialSpec& spec, Job& job, std::optional<FailoverPair>& pair,
                                     const LockKey& key, const RunLog& log) {
  bool on_redis = spec.fault == Fault::redis_restart || spec.fault == Fault::failover;
  if (!on_redis) return {};
  if (on_three_servers(spec)) {
    return [&server = *job.redlock.front(), &key, &log] {
      record_crash(log, crash_server(server.connection(), key,
                                     {[&] { server.kill(); }, [&]() -> RedisConnection& { server.restart(); return server.connection(); }}));
    };
  }
  if (pair) return [&] { record_crash(log, pair->fail_over(key)); };
  return [&] { record_crash(log, crash_redis(job.redis, key, /*start_again=*/true)); };
}

}  // namespace rlock
