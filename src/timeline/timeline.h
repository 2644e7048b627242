// A run's timeline: the events of events.jsonl turned into lanes, intervals and marks, ready to be
// drawn (timeline_svg.h draws them) or checked.
//
// One lane per worker, in the order they first appear, and one for the host (signals, Redis
// restarts, failovers). On a worker's lane:
//   held    from `acquired` until the lock was really gone: released (result 1), its TTL ran out
//           (each `watchdog_extended` moves that to its time plus the PTTL it reports; or the
//           host's `lock_expired`), a Redis restart or failover came back without it (a host
//           event with a negative PTTL), or another worker acquired it;
//   stale   from there until the worker stopped acting as the holder (its release, or its last
//           event of that acquisition): the time it wrote under a lock it no longer had;
//   paused  from a host SIGSTOP aimed at the worker to the SIGCONT (or the end of the run);
//   marks   one per event, with how it went: a fenced write with rowcount 0 is rejected.
// The balances come from the events alone, so an old data directory still tells its own run:
// the final balance is the last write the database accepted, the expected one the initial balance
// plus every worker's amount. Plain values and pure functions; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "lab/event.h"
#include "lab/verdict.h"

namespace rlock::timeline {

struct Interval {
  double from = 0;
  double to = 0;
};

// How a marked event went, which the drawing shows by shape and colour.
enum class MarkResult { neutral, ok, rejected, failed };

struct Mark {
  lab::Event event;
  MarkResult result = MarkResult::neutral;
};

struct Lane {
  std::string name;
  std::vector<Interval> held;
  std::vector<Interval> stale;
  std::vector<Interval> paused;
  std::vector<Mark> marks;
};

struct Timeline {
  std::vector<Lane> workers;
  Lane host;       // no marks: the run had no host events
  double end = 0;  // seconds since the start of the last event or interval end
  lab::BalanceVerdict verdict;
};

// Throws rlock::Error when `events` is empty.
Timeline build_timeline(std::vector<lab::Event> events);

}  // namespace rlock::timeline
