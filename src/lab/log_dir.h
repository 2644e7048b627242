// The data directory: where a run keeps its files.
//
//   run.log        the run's lines as the article prints them, in the writers' order
//   events.jsonl   the same events as records, one JSON object per line
//   .start         the run's start time (seconds since the epoch), written by `rlock reset`
//   .pid_NAME      the pid of worker NAME;  .read_NAME  created once NAME has read the balance
//   timeline.svg   the run drawn on a time axis (`rlock timeline`)
//
// A plain value type naming paths; thread-safe.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace rlock::lab {

class LogDir {
 public:
  explicit LogDir(std::filesystem::path root) : root_(std::move(root)) {}

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path run_log() const { return root_ / "run.log"; }
  std::filesystem::path events() const { return root_ / "events.jsonl"; }
  std::filesystem::path start_file() const { return root_ / ".start"; }
  std::filesystem::path timeline() const { return root_ / "timeline.svg"; }
  std::filesystem::path pid_file(std::string_view worker) const { return root_ / (".pid_" + std::string(worker)); }
  std::filesystem::path read_marker(std::string_view worker) const { return root_ / (".read_" + std::string(worker)); }

  // Creates the directory when missing, removes the previous run's log, events, timeline, markers
  // and pid files, and records the new start time. Throws rlock::Error when the directory cannot be written.
  void start_new_run(double start_epoch_seconds) const;
  // The start time `rlock reset` recorded. Throws rlock::Error when no run was started here.
  double start() const;

  // Writes `text` to `path` whole, never through a link (util/whole_file.h). Throws rlock::Error
  // when `path` cannot be written.
  void write_file(const std::filesystem::path& path, std::string_view text) const;

 private:
  std::filesystem::path root_;
};

}  // namespace rlock::lab
