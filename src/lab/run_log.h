// A run's log: records events to the data directory, and reads them back.
//
// record() stamps an event with the seconds since the run's start, appends its JSON record to
// events.jsonl and its rendered line to run.log (each one write(2), see AppendFile); a log kept in
// memory (the explorer's, an order a log) keeps the events instead and writes nothing. Thread-safe:
// a worker's main thread and its watchdog record through one RunLog.
#pragma once

#include <sys/types.h>
#include <cstdint>

#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

#include "lab/append_file.h"
#include "lab/event.h"
#include "lab/log_dir.h"
#include "lab/wording.h"

namespace rlock::lab {

// Seconds since the epoch, from the wall clock: the only clock that separate processes share
// (the kernel's, even in a process whose clock faketime skews).
double wall_seconds();
// Sleeps until wall_seconds() reads `epoch_seconds` (at once if it passed), by the kernel's clock
// too: a worker under faketime, exec'd early, still starts at the host's time.
void sleep_until_wall(double epoch_seconds);

class RunLog {
 public:
  // Throws rlock::Error when no run was started in `dir` or its files cannot be opened.
  RunLog(const LogDir& dir, Lang lang);
  // A log kept in memory, its run started at `start_epoch_seconds` (wall_seconds()).
  explicit RunLog(double start_epoch_seconds);

  Event record(std::string_view who, EventKind kind, nlohmann::json fields = nlohmann::json::object()) const;
  // The same, for an event that happened at `when` (wall_seconds()) and is recorded only now.
  Event record_at(double when, std::string_view who, EventKind kind, nlohmann::json fields) const;
  double start() const { return start_; }
  // Seconds since the run's start, as record() would stamp an event now.
  double elapsed() const;
  // What a log kept in memory recorded, in the order recorded; empty for a log in files.
  std::vector<Event> kept() const;

 private:
  double start_;
  Lang lang_ = Lang::en;
  std::optional<AppendFile> events_;
  std::optional<AppendFile> lines_;
  mutable std::mutex kept_mutex_;
  mutable std::vector<Event> kept_;
};

// Writes `events` as a run's events.jsonl and run.log in `dir`, replacing what was there.
void write_events(const LogDir& dir, const std::vector<Event>& events, Lang lang);

// Sends signal `number` to `pid` and records `kind` with `fields`, as the host, stamped just before
// the signal left: a continued process may log before this one does. Throws rlock::Error naming
// `target` and the cause when kill(2) fails.
void signal_and_record(const RunLog& log, pid_t pid, int number, std::string_view target, EventKind kind,
                       nlohmann::json fields);

// The most of events.jsonl that rlock reads: a history of thousands of increments is a few MiB.
inline constexpr std::uintmax_t kMaxEventsBytes = std::uintmax_t{64} << 20;

// Every event of the run in `dir`, in file order, its events.jsonl read as a regular file alone
// (util/plain_files.h: a link, a FIFO or /dev/zero is refused at once). Throws rlock::Error when
// there is no log, it is no regular file or larger than kMaxEventsBytes, it is empty, or a line is
// not an event record (naming the line).
std::vector<Event> read_events(const LogDir& dir);

// Sorts by time; events with equal times keep their order in the file.
void sort_by_time(std::vector<Event>& events);

}  // namespace rlock::lab
