#include "lab/run_log.h"

#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "rlock/error.h"
#include "util/plain_files.h"

namespace rlock::lab {

double wall_seconds() {
  // From the kernel, not through the C library: libfaketime, which skews a chaos worker's clock
  // (clock-skew), does not intercept the system call, so the worker still stamps the host's time.
  timespec now{};
  ::syscall(SYS_clock_gettime, CLOCK_REALTIME, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

void sleep_until_wall(double epoch_seconds) {
  auto whole = static_cast<time_t>(epoch_seconds);
  timespec when{whole, static_cast<long>((epoch_seconds - static_cast<double>(whole)) * 1e9)};
  while (::syscall(SYS_clock_nanosleep, CLOCK_REALTIME, TIMER_ABSTIME, &when, nullptr) != 0 && errno == EINTR) {
  }
}

RunLog::RunLog(const LogDir& dir, Lang lang)
    : start_(dir.start()), lang_(lang), events_(std::in_place, dir.events()), lines_(std::in_place, dir.run_log()) {}

RunLog::RunLog(double start_epoch_seconds) : start_(start_epoch_seconds) {}

Event RunLog::record(std::string_view who, EventKind kind, nlohmann::json fields) const {
  return record_at(wall_seconds(), who, kind, std::move(fields));
}

double RunLog::elapsed() const { return wall_seconds() - start_; }

Event RunLog::record_at(double when, std::string_view who, EventKind kind, nlohmann::json fields) const {
  Event event{when - start_, std::string(who), kind, std::move(fields)};
  if (!events_) {
    std::lock_guard lock(kept_mutex_);
    kept_.push_back(event);
    return event;
  }
  events_->append_line(event.to_json_line());
  lines_->append_line(format_line(event, lang_));
  return event;
}

std::vector<Event> RunLog::kept() const {
  std::lock_guard lock(kept_mutex_);
  return kept_;
}

void write_events(const LogDir& dir, const std::vector<Event>& events, Lang lang) {
  std::string json_lines, log_lines;
  for (const Event& event : events) {
    json_lines += event.to_json_line() + '\n';
    log_lines += format_line(event, lang) + '\n';
  }
  dir.write_file(dir.events(), json_lines);
  dir.write_file(dir.run_log(), log_lines);
}

void signal_and_record(const RunLog& log, pid_t pid, int number, std::string_view target, EventKind kind,
                       nlohmann::json fields) {
  double sent = wall_seconds();
  if (::kill(pid, number) != 0) {
    throw Error(fmt::format("cannot signal {} (pid {}): {}", target, pid, std::strerror(errno)));
  }
  log.record_at(sent, "host", kind, std::move(fields));
}

std::vector<Event> read_events(const LogDir& dir) {
  std::error_code missing;
  if (!std::filesystem::exists(std::filesystem::symlink_status(dir.events(), missing)))
    throw Error(fmt::format("no log in {}: {} does not exist", dir.root().string(), dir.events().string()));
  std::istringstream in(util::read_plain_file(dir.events(), kMaxEventsBytes));
  std::vector<Event> events;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    try {
      events.push_back(Event::from_json_line(line));
    } catch (const Error& e) {
      throw Error(fmt::format("{} line {}: {}", dir.events().string(), number, e.what()));
    }
  }
  if (events.empty()) throw Error(fmt::format("no events recorded in {} yet", dir.events().string()));
  return events;
}

void sort_by_time(std::vector<Event>& events) {
  std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.t < b.t; });
}

}  // namespace rlock::lab
