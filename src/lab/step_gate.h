// The gate a worker stops at before each step that matters, for `rlock explore` (docs/explore.md):
// the steps by name, as an order's tokens spell them (`A:read`), and what a gated worker tells
// its gate. An ungated worker (the lab, chaos, bench) has no gate and takes its steps freely.
//
// The gate is the explorer's; a worker borrows it. A worker calls it from its own thread; the
// gate calls a watchdog's extension from a thread of its choosing while that worker waits in
// before(), so the gate must be thread-safe and the two never run at once.
#pragma once

#include <functional>
#include <optional>
#include <string_view>

#include "rlock/token.h"

namespace rlock::lab {

enum class Step { acquire, fence, claim, read, write, extend, release };

std::string_view to_string(Step step);
std::optional<Step> step_from(std::string_view name);

class StepGate {
 public:
  virtual ~StepGate() = default;

  // Returns when `worker` may take `step`. Throws to stop the worker (its increment then fails).
  virtual void before(std::string_view worker, Step step) = 0;
  // `worker` was granted the lock under `token`. With a watchdog, `extend` renews the lease once
  // on the watchdog's own connection, says whether it did, and records it; empty without one.
  virtual void granted(std::string_view worker, const Token& token, std::function<bool()> extend) = 0;
  // `worker`'s watchdog stopped (before the release): `extend` is not to be called again.
  virtual void watchdog_stopped(std::string_view worker) = 0;
  // K: the acquisition tries beyond the first, and the fenced loop's restarts, a worker may take.
  virtual int bound() const = 0;
};

}  // namespace rlock::lab
