// The gate the gated workers of one order stop at (lab/step_gate.h), and the explorer's side of
// it: each worker runs on a thread of its own, but only one thing moves at a time. A worker runs
// until it waits before its next step or finishes; the explorer then sees every worker waiting or
// finished (settle), picks one move, and lets only that worker go (go), or extends a lease, while
// the others wait. An order is therefore a deterministic sequence of moves.
//
// Thread-safe: the workers' threads call the StepGate side, the explorer's thread the rest.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "lab/step_gate.h"

namespace rlock::explore {

class Turns final : public lab::StepGate {
 public:
  Turns(std::vector<std::string> names, int bound);

  void before(std::string_view worker, lab::Step step) override;
  void granted(std::string_view worker, const Token& token, std::function<bool()> extend) override;
  void watchdog_stopped(std::string_view worker) override;
  int bound() const override { return bound_; }

  // A new order: every worker about to start, none holding.
  void reset();
  // The worker's thread ended (its increment returned).
  void finished(std::size_t worker);
  // Waits until every worker waits before a step or has finished. Throws Error naming the worker
  // that took longer than `limit` (a server that does not answer).
  void settle(std::chrono::milliseconds limit = std::chrono::seconds(30));

  struct View {
    std::optional<lab::Step> waiting;  // the step it waits before; none once finished
    std::optional<Token> token;        // the token it was last granted the lock under
    bool can_extend = false;           // its watchdog runs and has not failed
  };
  View view(std::size_t worker) const;

  // Lets the worker take the step it waits before, then settles.
  void go(std::size_t worker);
  // Its watchdog's one extension, made on this thread while the worker waits; a failed one stops it.
  bool extend(std::size_t worker);
  // Every worker's next step throws: for an order abandoned half-way (its threads must end).
  void stop();

 private:
  struct Seat {
    std::string name;
    bool running = true;  // neither waiting nor finished
    bool finished = false;
    bool allowed = false;
    std::optional<lab::Step> waiting;
    std::optional<Token> token;
    std::function<bool()> extend;
  };
  Seat& seat(std::string_view worker);

  int bound_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Seat> seats_;
  bool stopped_ = false;
};

}  // namespace rlock::explore
