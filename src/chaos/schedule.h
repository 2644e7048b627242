// A chaos trial's schedule, as the generator (generator.h) drew it: who starts when, adds what and
// works how long, which worker the nemesis strikes, how long a pause lasts, and what the fault drew
// for itself.
//
// Plain values; thread-safe.
#pragma once

#include <any>
#include <cstddef>
#include <string>
#include <vector>

#include "lab/worker_plan.h"

namespace rlock::chaos {

// The generator: who starts when, adds what, works how long, and the fault's victim and length.
struct Schedule {
  std::vector<lab::WorkerPlan> workers;  // each one's name, amount, start, work and hold; the rest set by its runner
  std::size_t target = 0;                // the worker the nemesis picks: the first to start, likely the first holder
  double pause_s = 0;                    // how long a pause, a partition, a held write or a stall lasts
  // What the trial's fault drew for itself, a value of a type of its own file's (faults/fault.h:
  // ScheduleDraw::keep), read back by that file alone (drawn_by_fault).
  std::any fault_draws{};
};

// What the fault of `schedule` kept of type Drawn; Drawn{} when it kept none (a schedule made by hand).
template <typename Drawn>
Drawn drawn_by_fault(const Schedule& schedule) {
  const Drawn* drawn = std::any_cast<Drawn>(&schedule.fault_draws);
  return drawn ? *drawn : Drawn{};
}

}  // namespace rlock::chaos
