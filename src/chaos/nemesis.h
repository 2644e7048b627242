// The nemesis of a chaos trial, and the reaper of its clients: once the targeted worker has read,
// it pauses (SIGSTOP, then SIGCONT), kills (SIGKILL, at a drawn point from its read to its
// release: before or after its write) or slows nothing but the schedule; or it
// strikes Redis's host: a crash and restart of the Redis the workers use, a failover to its
// replica (at a drawn point of the target's work), or a crash of one of Redlock's servers. Every fault is recorded in the trial's run log.
//
// Runs in the trial's process; not thread-safe. The trial owns the workers, the failover pair and
// the job's servers; the nemesis only signals or crashes them.
#pragma once

#include <sys/types.h>

#include <functional>
#include <optional>
#include <vector>

#include "chaos/chaos.h"
#include "chaos/history.h"
#include "chaos/job.h"
#include "chaos/schedule.h"
#include "host/failover_pair.h"
#include "lab/lab_dir.h"
#include "lab/run_log.h"
#include "rlock/lock_key.h"

namespace rlock {

// The nemesis and the reaper: applies the fault once the target has read (`host_fault` for the
// faults of Redis's host), and waits (bounded) for every worker. Returns how each one ended.
// When `stopped` says so (the campaign stops), kills the workers still running at once.
std::vector<WorkerExit> supervise(const TrialSpec& spec, const Schedule& schedule, const std::vector<pid_t>& pids,
                                  const LabDir& dir, const RunLog& log, const std::function<void()>& host_fault,
                                  const std::function<bool()>& stopped = {});

// Whether the trial's fault struck, by its run's events: the nemesis recorded an act of its own
// (a signal, a crash, a failover: events of "host"), or, under `slow`, the slow target read.
bool fault_struck(const TrialSpec& spec, const Schedule& schedule, const std::vector<Event>& events);

// The host's fault of the trial on the Redis its workers use, or none for the workers' faults.
// Redlock's servers take a restart and a failover alike: one of them comes back empty.
std::function<void()> host_fault_for(const TrialSpec& spec, Job& job, std::optional<FailoverPair>& pair,
                                     const LockKey& key, const RunLog& log);

}  // namespace rlock
