// The generator of a chaos trial: its schedule (schedule.h), drawn from the campaign's seed and the
// trial's strategy, fault and number, so that a trial can be replayed alone.
//
// A pure function; thread-safe.
#pragma once

#include "chaos/chaos.h"
#include "chaos/schedule.h"

namespace rlock::chaos {

// A worker's work under the lock, in a trial whose fault draws none for it: the target's own is
// the fault's (faults/fault.h draw_work).
inline constexpr double kMinWorkSeconds = 0.005, kMaxWorkSeconds = 0.03;

Schedule schedule_for(const TrialSpec& spec, const ChaosSetup& setup);

}  // namespace rlock::chaos
