// The nemesis of a chaos trial, and the reaper of its clients: once the targeted worker has read,
// it pauses (SIGSTOP, then SIGCONT), kills (SIGKILL, at a drawn point from its read to its
// release: before or after its write) or slows nothing but the schedule; or it
// strikes Redis's host: a crash and restart of the Redis the workers use, a failover to its
// replica (at a drawn point of the target's work), a crash of one of Redlock's servers, or a stall
// (SIGSTOP, then SIGCONT) of one; or the network (network.h): the target cut off from Redis, or
// its writes to PostgreSQL held, and then healed; under net-delay it jitters every connection's
// latency all along. Every fault is recorded in the trial's run log.
//
// Runs in the trial's process; not thread-safe. The trial owns the workers, the failover pair, the
// servers and the network; the nemesis only signals, crashes or commands them.
#pragma once

#include <sys/types.h>

#include <functional>
#include <optional>
#include <vector>

#include "chaos/chaos.h"
#include "chaos/history.h"
#include "chaos/job.h"
#include "chaos/network.h"
#include "chaos/schedule.h"
#include "host/failover_pair.h"
#include "host/local_redis.h"
#include "lab/lab_dir.h"
#include "lab/run_log.h"
#include "rlock/lock_key.h"

namespace rlock {

// A fault that strikes once, returning what heals it (empty: nothing heals a crash).
using Heal = std::function<void()>;
using Strike = std::function<Heal()>;

// Whether the trial's fault struck, by its run's events: the nemesis recorded an act of its own
// (a signal, a crash, a failover, a cut: events of "host"), under `slow` and `clock-skew` the
// target read, and under net-delay, which acts all along, whenever a worker did anything
// (pg-atomic never reads).
bool fault_struck(const TrialSpec& spec, const Schedule& schedule, const std::vector<Event>& events);

// What the nemesis does beyond the workers' own signals: its strike on Redis's host or on the
// network (empty for pause, slow and kill), healed heal_after_s after it struck, and what it does
// every 10 ms all along the trial (empty but under net-delay).
struct Nemesis {
  Strike strike;
  double heal_after_s = 0;
  std::function<void()> tick;
};

// The nemesis and the reaper: strikes once the target has read (kill and failover at a drawn
// point after it, unless the target finished first), heals when due (at the latest when the trial
// ends), and waits (bounded) for every worker. Returns how each one ended. When `stopped` says so
// (the campaign stops), kills the workers still running at once.
std::vector<WorkerExit> supervise(const TrialSpec& spec, const Schedule& schedule, const std::vector<pid_t>& pids,
                                  const LabDir& dir, const RunLog& log, const Nemesis& nemesis,
                                  const std::function<bool()>& stopped = {});

// The trial's nemesis beyond the workers' signals, on the Redis its workers use (`own`: the
// trial's own server, for a stall), on the job's Redlock servers, and on `network` (null unless
// the fault goes through proxies). Redlock's servers take a restart and a failover alike: one of
// them comes back empty; a stall stops one of them.
Nemesis nemesis_for(const TrialSpec& spec, const Schedule& schedule, Job& job, std::optional<FailoverPair>& pair,
                    std::optional<LocalRedis>& own, TrialNetwork* network, const LockKey& key, const RunLog& log);

}  // namespace rlock
