// The gate the gated workers of one order stop at (lab/step_gate.h), and the order's turns: each
// worker runs on a thread of its own, kept from one order to the next, but only one thing moves at
// a time, and the turn passes with it. A worker runs until it waits before its next step or
// finishes; its own thread then asks the explorer's `next` which move comes next (next makes an
// event or an extension itself, and names the worker to let go), and lets only that worker go: no
// hand-off when it is the same worker, one when it is another. An order is therefore a
// deterministic sequence of moves.
//
// Thread-safe as used: the workers' threads call the StepGate side and `next` while they hold the
// turn, the explorer's thread run_order() (one order at a time) and, inside `next`, view() and
// extend().
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "lab/step_gate.h"

namespace rlock::explore {

class Turns final : public lab::StepGate {
 public:
  // The workers' threads start here, each running `increment(worker)` once an order, its steps
  // gated here.
  Turns(std::vector<std::string> names, int bound, std::function<void(std::size_t)> increment);
  ~Turns() override;
  Turns(const Turns&) = delete;
  Turns& operator=(const Turns&) = delete;

  void before(std::string_view worker, lab::Step step) override;
  void granted(std::string_view worker, const Token& token, std::function<bool()> extend) override;
  void watchdog_stopped(std::string_view worker) override;
  int bound() const override { return bound_; }

  // Picks the move at this point: makes it when it is an event or an extension and asks again, or
  // names the worker to let go; empty when no move is enabled (every worker finished).
  using Next = std::function<std::optional<std::size_t>()>;

  // One order: every worker about to start, none holding; each started in turn up to its first
  // gate, then `next` asked at each point until it says the order is over. Returns when every
  // worker finished. Rethrows what `next` threw, once every worker ended (each one's next step
  // throws: the order is abandoned); throws Error naming the worker that took longer than `limit`
  // to reach its next step (a server that does not answer).
  void run_order(const Next& next, std::chrono::milliseconds limit = std::chrono::seconds(30));

  struct View {
    std::optional<lab::Step> waiting;  // the step it waits before; none once finished
    std::optional<Token> token;        // the token it was last granted the lock under
    bool can_extend = false;           // its watchdog runs and has not failed
  };
  View view(std::size_t worker) const;

  // Its watchdog's one extension, made on the calling thread while the worker waits; a failed one
  // stops it.
  bool extend(std::size_t worker);

 private:
  // Leave to run, given by one thread and taken by another; taking it waits without spinning (a
  // spinning waiter yields its core to the machine's other processes, and waits for it again).
  class Leave {
   public:
    void give();
    void take();
    bool take_for(std::chrono::milliseconds limit);

   private:
    std::mutex mutex_;
    std::condition_variable given_;
    bool left_ = false;
  };
  struct Seat {
    std::string name;
    Leave turn;
    bool finished = false;
    std::optional<lab::Step> waiting;
    std::optional<Token> token;
    std::function<bool()> extend;
  };
  Seat& seat(std::string_view worker);
  // The turn's holder stopped (at a gate, or finished): starts the next worker, or lets go the one
  // `next` names, or ends the order.
  void pass();
  void abandon(std::exception_ptr error);
  void finished(std::size_t worker);

  int bound_;
  std::function<void(std::size_t)> increment_;
  std::vector<std::unique_ptr<Seat>> seats_;
  std::vector<std::thread> threads_;
  const Next* next_ = nullptr;
  std::size_t started_ = 0;
  std::atomic<std::size_t> running_ = 0;  // the worker let go last
  std::atomic<long long> moves_ = 0;      // the points passed, for the limit
  mutable std::mutex mutex_;              // the fields below, which an abandoned order's threads share
  std::size_t ended_ = 0;
  std::atomic<bool> stopped_ = false;
  std::atomic<bool> closing_ = false;
  std::exception_ptr error_;
  Leave done_;
};

}  // namespace rlock::explore
