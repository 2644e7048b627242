// The generator of a chaos trial: its schedule (schedule.h), drawn from the campaign's seed and the
// trial's strategy, fault and number, so that a trial can be replayed alone.
//
// A pure function; thread-safe.
#pragma once

#include "chaos/chaos.h"
#include "chaos/schedule.h"

namespace rlock::chaos {

Schedule schedule_for(const TrialSpec& spec, const ChaosSetup& setup);

}  // namespace rlock::chaos
