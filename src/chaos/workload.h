// A trial as a history, the Jepsen way: its workload (long-lived workers that lock again and
// again, each keeping its process, connections, session and lock object across increments, as a
// service does) and its nemesis schedule (operations that compose: at a time, every interval, or
// armed at a named step of a named worker's N-th increment, each with its heal).
//
// A schedule's operation is one of the chaos faults (faults/fault.h), struck on one increment of one
// worker as a one-increment trial strikes its target: what it draws for that increment (the target's
// work, the pause's length, its own draws) is drawn anew at each strike from the history's seed. A
// schedule is written as text, its steps separated by ';':
//
//   FAULT[:WORKER] [at T | every T [from T] | on STEP[#N]] [for T]
//
//   pause:A on read#2 for 2ttl; lost-reply:B on release#3; redis-restart at 4s; conn-drop every 3ttl
//
// T is a number of seconds (`1.5s`, `300ms`) or of TTLs (`2ttl`). WORKER is A, B, ...; without one,
// each strike draws a worker. STEP is acquire, acquired, read, write, release or extend (the harness
// sees a read and a write; the others a client announces, protocol/messages.h); #N its N-th
// increment, the next one without. Without `at`, `every` or `on`, the fault strikes once, at 1 TTL.
// Without `for`, its heal comes when the fault's own draw says (a pause's length).
//
// Plain values and pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chaos/faults/fault.h"

namespace rlock::util {
class SeededRandom;
}  // namespace rlock::util

namespace rlock::chaos {

inline constexpr int kMinHistoryWorkers = 2, kMaxHistoryWorkers = 8;
inline constexpr int kMaxHistoryIncrements = 10000;  // a worker's
inline constexpr double kMaxHistorySeconds = 3600;
inline constexpr std::size_t kMaxScheduleSteps = 32;

// What a history's workers do: each its increments back to back, `increments` of them, or for
// `duration_s` seconds. Neither: the one-increment trials of the labs and of a campaign by default.
struct Workload {
  int workers = 3;
  int increments = 0;
  double duration_s = 0;

  bool history() const { return increments > 0 || duration_s > 0; }
  bool operator==(const Workload&) const = default;
};

// Throws UsageError, in one line, for workers out of 2 to 8, increments out of 1 to 10000, a
// duration out of (0, 3600] s, or both increments and a duration.
void check_workload(const Workload& workload);

// A time as a schedule writes it: seconds, or TTLs.
struct ScheduleTime {
  double value = 0;
  bool ttls = false;

  double seconds(double ttl_s) const { return ttls ? value * ttl_s : value; }
  bool operator==(const ScheduleTime&) const = default;
};

enum class Trigger { once, at, every, on_step };

// One step of a nemesis schedule.
struct NemesisStep {
  Fault fault{};
  std::string worker{};  // "A".."H"; empty: each strike draws one
  Trigger trigger = Trigger::once;
  ScheduleTime at{};     // at, and every's first (its `from`; every's interval itself by default)
  ScheduleTime every{};  // every: the interval
  std::string step{};    // on_step: acquire, acquired, read, write, release, extend
  int increment = 0;     // on_step: the worker's N-th increment, from 1; 0: its next
  std::optional<ScheduleTime> heal_after{};
  bool jittered = false;  // every: each interval drawn from 2/3 to 4/3 of it (a campaign's schedule)

  bool operator==(const NemesisStep&) const = default;
};

struct NemesisSchedule {
  std::vector<NemesisStep> steps;
  bool operator==(const NemesisSchedule&) const = default;
};

// The steps a schedule may arm an operation at: the harness's own (read, write) and those a client
// announces (protocol/messages.h kSteps).
const std::vector<std::string_view>& schedule_steps();

// The schedule `text` names, for a history of `workers` workers. Throws UsageError, in one line
// naming the step and what is wrong in it: an unknown fault, worker or step, a worker past the
// workload's, a time that is no number of s, ms or ttl, more than kMaxScheduleSteps steps.
NemesisSchedule parse_schedule(std::string_view text, int workers);
// The schedule as parse_schedule reads it back.
std::string to_string(const NemesisSchedule& schedule);
// Throws UsageError, "--nemesis: #3 is past each worker's 2 increments", for a step armed at an
// increment past the workload's (a history of a duration has no last one).
void check_schedule(const NemesisSchedule& schedule, const Workload& workload);

// What a campaign's first line says of its histories: ", histories of 2 workers for 4 s, under
// lost-reply:A on release#1" (or "20 increments each", "under each fault every 2 to 4 TTLs"); "" for
// one-increment trials.
std::string history_text(const Workload& workload, const std::optional<NemesisSchedule>& nemesis);

// Why `fault` cannot be a history's operation (its servers or the client's clock are set up for
// each one-increment trial), or "" when it can. none can: its history strikes nothing.
std::string_view history_refusal(Fault fault);
// The faults a history can strike (those history_refusal refuses none of), in all_faults()'s order.
std::vector<Fault> history_faults();

// A campaign's schedule for a history under `fault`: the fault every 2 to 4 TTLs along it, from
// 1 TTL, each strike on a worker drawn then (every 3ttl, jittered).
NemesisSchedule drawn_schedule(Fault fault);

}  // namespace rlock::chaos
