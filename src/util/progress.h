// The progress of a long command (a chaos campaign, a bench run) on stderr. On a terminal it is one
// line rewritten in place: done/total, the caller's detail (e.g. anomalies so far), the time
// elapsed and an estimate of the time left. Elsewhere (a log file, a CI job) it is a plain line at
// most once per period, and always for the last step, so that logs stay short and readable.
//
// Owned by the command's main thread; not thread-safe. The clock is injected for tests.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>

namespace rlock::util {

class Progress {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  // `label` starts every line ("chaos"), `unit` names what is counted ("trials"). `terminal`
  // defaults to whether `out` is a terminal.
  Progress(std::FILE* out, std::string label, std::string unit, std::size_t total);
  Progress(std::FILE* out, std::string label, std::string unit, std::size_t total, bool terminal,
           std::chrono::seconds period, Clock clock);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void update(std::size_t done, std::string_view detail = {});
  // Erases the line on a terminal, so that other output (a table's row on stdout) can take its
  // place; the next update draws it again. Nothing elsewhere.
  void clear();
  // Ends the line on a terminal, so that what follows starts on a line of its own.
  void finish();

 private:
  std::string line(std::size_t done, std::string_view detail) const;

  std::FILE* out_;
  std::string label_, unit_;
  std::size_t total_;
  bool terminal_;
  std::chrono::seconds period_;
  Clock clock_;
  std::chrono::steady_clock::time_point start_, last_printed_;
  bool printed_ = false, finished_ = false;
  bool drawn_ = false;  // the terminal's line shows the progress now
  std::size_t last_done_ = 0;
};

// "42 s", "3:05", "1:02:07": a span as a person reads it on a progress line.
std::string clock_text(std::chrono::seconds span);

}  // namespace rlock::util
