// A strategy's journal kept in a data directory: each step an event of the run's log (run_log.h),
// and, unless the explorer's gate stands in for it, the read marker a host's fault waits for.
// Opened later: open() for the run started last, or use() for a log of the caller's (the explorer's,
// kept in memory). Its record() is called from the strategy's thread and its watchdog's, as RunLog
// allows.
#pragma once

#include <optional>
#include <string>

#include "lab/log_dir.h"
#include "lab/run_log.h"
#include "strategy/journal.h"

namespace rlock::strategy {

class RunJournal final : public Journal {
 public:
  enum class Markers { write, none };
  RunJournal(std::string worker, const lab::LogDir& dir, lab::Lang lang, Markers markers)
      : name_(std::move(worker)), dir_(dir), lang_(lang), markers_(markers) {}

  // Logs to the run started last in the data directory from now on.
  void open() { log_ = &own_.emplace(dir_, lang_); }
  // Logs to `log` from now on; it must outlive the steps recorded.
  void use(const lab::RunLog& log) { log_ = &log; }
  const lab::RunLog& log() const { return *log_; }  // once open

  void record(lab::EventKind kind, nlohmann::json fields) const override {
    if (log_) log_->record(name_, kind, std::move(fields));
  }
  void mark_read() const override {
    if (markers_ == Markers::write) dir_.write_file(dir_.read_marker(name_), "");
  }
  double elapsed() const override { return log_ ? log_->elapsed() : 0; }

 private:
  std::string name_;
  const lab::LogDir& dir_;
  lab::Lang lang_;
  Markers markers_;
  std::optional<lab::RunLog> own_;
  const lab::RunLog* log_ = nullptr;
};

}  // namespace rlock::strategy
