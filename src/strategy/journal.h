// Where a strategy's steps are recorded: the run's log and the host's markers (run_journal.h), or
// nowhere (this class itself: `rlock bench` times the increments alone, and a protocol client's
// history is the harness's). Used by the strategy's thread and its watchdog's, one at a time as
// RunLog allows.
#pragma once

#include <nlohmann/json.hpp>

#include "lab/event.h"

namespace rlock::strategy {

class Journal {
 public:
  virtual ~Journal() = default;

  virtual void record(lab::EventKind, nlohmann::json = nlohmann::json::object()) const {}
  // The balance is read (and checked, where the strategy checks): a host's fault may strike now.
  virtual void mark_read() const {}
  // Seconds since the run's start: when a write left, for a checker's section.
  virtual double elapsed() const { return 0; }
};

}  // namespace rlock::strategy
