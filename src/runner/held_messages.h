// What a protocol client's trial (client_trial.h) holds back before it sends or applies it: a
// read's answer, held for the worker's work time, and a write the network holds (delayed-write).
//
// Plain values and a function template; thread-safe.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <vector>

#include "chaos/trial_loop.h"
#include "protocol/messages.h"

namespace rlock::runner {

// A read's answer, held back for the worker's work time.
struct HeldReply {
  chaos::TrialClock::time_point due;
  std::size_t worker;
  protocol::ReadOk message;
};

// A write the network holds (delayed-write), applied once due as sent at `sent_at` (the log's clock).
struct HeldWrite {
  chaos::TrialClock::time_point due;
  std::size_t worker;
  protocol::Write message;
  double sent_at;
};

// Removes from `held` what is due by `now` and returns it, both in the order they were held.
template <typename Held>
std::vector<Held> take_due(std::vector<Held>& held, chaos::TrialClock::time_point now) {
  auto due = std::stable_partition(held.begin(), held.end(), [&](const Held& h) { return h.due > now; });
  std::vector<Held> taken(std::make_move_iterator(due), std::make_move_iterator(held.end()));
  held.erase(due, held.end());
  return taken;
}

}  // namespace rlock::runner
