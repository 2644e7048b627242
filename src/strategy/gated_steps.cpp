#include "strategy/gated_steps.h"

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock::strategy {

Lease GatedSteps::acquire(Acquiring& lock) {
  for (;;) {
    before(lab::Step::acquire);
    std::optional<Acquisition> answered;
    for (int asked = 0; asked < 2 && !answered; ++asked) answered = lock.once();
    if (answered && *answered) return *answered->lease;
    if (answered) lock.refused(*answered);
    if (++refusals_ > gate_.bound()) {
      throw Error(fmt::format("worker {} gave up after {} refused tries; {} was not added", name_, refusals_, amount_));
    }
  }
}

void GatedSteps::restarting(int restarts) {
  if (restarts > gate_.bound()) {
    throw Error(fmt::format("worker {} gave up after {} restarts; {} was not added", name_, restarts - 1, amount_));
  }
}

}  // namespace rlock::strategy
