#include "strategy/incrementer.h"

#include <thread>

namespace rlock::strategy {

void pause_for(double seconds) {
  if (seconds > 0) std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

}  // namespace rlock::strategy
