#include "timeline/timeline.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

#include "bank/initial_balance.h"
#include "lab/run_log.h"
#include "rlock/error.h"

namespace rlock::timeline {

using lab::Event;
using lab::EventKind;

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

bool is_host(const Event& event) { return event.who == "host"; }

// How an event went, for its mark.
MarkResult result_of(const Event& event) {
  switch (event.kind) {
    case EventKind::acquired:
    case EventKind::wrote:
    case EventKind::pg_added:
    case EventKind::watchdog_extended: return MarkResult::ok;
    case EventKind::fenced_write: return event.rowcount().value_or(0) > 0 ? MarkResult::ok : MarkResult::rejected;
    case EventKind::claim_rejected: return MarkResult::rejected;
    case EventKind::released: return event.release_result().value_or(-1) == 1 ? MarkResult::ok : MarkResult::failed;
    case EventKind::checked: return event.held().value_or(false) ? MarkResult::ok : MarkResult::failed;
    case EventKind::watchdog_failed:
    case EventKind::error: return MarkResult::failed;
    default: return MarkResult::neutral;
  }
}

// The times at which the lock was gone by no act of its holder: Redis came back without any lock (a
// restart without persistence, a failover to a replica that never got it), or `rlock explore` made
// its TTL run out.
std::vector<double> lock_losses(const std::vector<Event>& events) {
  std::vector<double> losses;
  for (const Event& event : events) {
    bool came_back = event.kind == EventKind::redis_started || event.kind == EventKind::redis_promoted;
    if ((came_back && event.pttl().value_or(0) < 0) || event.kind == EventKind::lock_expired) {
      losses.push_back(event.t);
    }
  }
  return losses;
}

// The first time after `t` in `times`, or kNever.
double first_after(const std::vector<double>& times, double t) {
  for (double time : times) {
    if (time > t) return time;
  }
  return kNever;
}

// One acquisition of worker `lane`: the lock really held, then the time it acted without it.
// `begin` is the acquired event; the acquisition lasts until its release, the worker's next
// acquisition, or the worker's last event.
void add_acquisition(Lane& lane, const std::vector<Event>& events, std::size_t begin, const std::vector<double>& losses,
                     const std::vector<double>& others_acquired) {
  const Event& acquired = events[begin];
  double expiry = acquired.t + static_cast<double>(acquired.ttl_ms().value_or(0)) / 1000;
  double acting_until = acquired.t;
  std::optional<double> released_by_us;
  for (std::size_t i = begin + 1; i < events.size(); ++i) {
    const Event& event = events[i];
    if (event.who != lane.name) continue;
    if (event.kind == EventKind::acquired) break;
    acting_until = event.t;
    if (event.kind == EventKind::watchdog_extended)
      expiry = event.t + static_cast<double>(event.pttl().value_or(0)) / 1000;
    if (event.kind == EventKind::released) {
      if (event.release_result().value_or(-1) == 1) released_by_us = event.t;
      break;
    }
  }
  if (released_by_us) {
    lane.held.push_back({acquired.t, *released_by_us});
    return;
  }
  double gone = std::min({expiry, first_after(losses, acquired.t), first_after(others_acquired, acquired.t)});
  lane.held.push_back({acquired.t, gone});
  if (acting_until > gone) lane.stale.push_back({gone, acting_until});
}

// Pauses from host SIGSTOP to SIGCONT (or SIGKILL, or the end) of the worker named by `target`.
std::map<std::string, std::vector<Interval>> pauses(const std::vector<Event>& events, double end) {
  std::map<std::string, std::vector<Interval>> paused;
  std::map<std::string, double> stopped_at;
  for (const Event& event : events) {
    if (event.kind != EventKind::signal) continue;
    std::string target = event.target().value_or("");
    std::string signal = event.signal().value_or("");
    if (signal == "SIGSTOP") {
      stopped_at.try_emplace(target, event.t);
    } else if (auto it = stopped_at.find(target); it != stopped_at.end()) {
      paused[target].push_back({it->second, event.t});
      stopped_at.erase(it);
    }
  }
  for (const auto& [target, at] : stopped_at) paused[target].push_back({at, end});
  return paused;
}

// Each increment's amount, as its events tell it: a write's or a failure's amount, or a fenced
// write's balance less the balance it read, once an increment. A worker's increment runs from its
// read, so a one-increment trial counts each worker's amount once and a history each increment's;
// a failure that added nothing after an applied write is the worker's next increment (a history's
// acquire that failed).
long long expected_balance(const std::vector<Event>& events) {
  struct Increment {
    std::optional<long long> read;  // the balance it read
    bool counted = false, written = false;
  };
  std::map<std::string, Increment> current;
  long long expected = bank::kInitialBalance;
  for (const Event& event : events) {
    Increment& at = current[event.who];
    if (event.kind == EventKind::read) {
      at = Increment{event.balance().value_or(0), false, false};
      continue;
    }
    std::optional<long long> amount;
    bool write = false;
    if (event.kind == EventKind::wrote || event.kind == EventKind::pg_added) {
      amount = event.amount();
      write = true;
    } else if (event.kind == EventKind::fenced_write && event.rowcount().value_or(0) > 0 && at.read) {
      amount = event.balance().value_or(0) - *at.read;
      write = true;
    } else if (event.kind == EventKind::error) {
      amount = event.amount();
      if (amount && !event.added().value_or(true) && at.written) at.counted = false;  // the next increment's
    }
    if (!amount || at.counted) continue;
    expected += *amount;
    at.counted = true;
    at.written = write;
  }
  return expected;
}

// The balance the last accepted write left, or the initial one when nothing was written.
long long final_balance(const std::vector<Event>& events) {
  long long balance = bank::kInitialBalance;
  for (const Event& event : events) {
    if (event.kind == EventKind::wrote || event.kind == EventKind::pg_added) {
      balance = event.after().value_or(balance);
    }
    if (event.kind == EventKind::fenced_write && event.rowcount().value_or(0) > 0) {
      balance = event.balance().value_or(balance);
    }
  }
  return balance;
}

}  // namespace

Timeline build_timeline(std::vector<Event> events) {
  if (events.empty()) throw Error("no events to draw");
  lab::sort_by_time(events);
  Timeline timeline;
  timeline.host.name = "host";
  std::map<std::string, std::size_t> lane_of;
  for (const Event& event : events) {
    timeline.end = std::max(timeline.end, event.t);
    if (is_host(event)) {
      timeline.host.marks.push_back({event, result_of(event)});
      continue;
    }
    auto [it, added] = lane_of.try_emplace(event.who, timeline.workers.size());
    if (added) timeline.workers.push_back(Lane{event.who, {}, {}, {}, {}});
    timeline.workers[it->second].marks.push_back({event, result_of(event)});
  }

  std::vector<double> losses = lock_losses(events);
  for (Lane& lane : timeline.workers) {
    std::vector<double> others_acquired;
    for (const Event& event : events) {
      if (event.kind == EventKind::acquired && event.who != lane.name) others_acquired.push_back(event.t);
    }
    for (std::size_t i = 0; i < events.size(); ++i) {
      if (events[i].who == lane.name && events[i].kind == EventKind::acquired) {
        add_acquisition(lane, events, i, losses, others_acquired);
      }
    }
    for (const Interval& held : lane.held) timeline.end = std::max(timeline.end, held.to);
  }
  auto paused = pauses(events, timeline.end);
  for (Lane& lane : timeline.workers) lane.paused = paused[lane.name];

  timeline.verdict = lab::balance_verdict(final_balance(events), expected_balance(events), events);
  return timeline;
}

}  // namespace rlock::timeline
