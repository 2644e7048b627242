// What a strategy calls at each step that matters, so that `rlock explore` can take the steps one
// at a time (gated_steps.h plugs its StepGate in). This class itself lets every step go: the
// lab, chaos, bench and a protocol client run freely.
//
// Acquiring is what a one-lock strategy offers the hook to take its lock: by its acquisition
// policy (acquire.h), or one attempt at a time. Called on the strategy's thread.
#pragma once

#include <functional>
#include <optional>

#include "lab/step_gate.h"
#include "rlock/redis_lock.h"
#include "rlock/token.h"

namespace rlock::strategy {

class Acquiring {
 public:
  virtual ~Acquiring() = default;
  // The lock, asked for as the policy says; throws Error when the policy's deadline passed.
  virtual Lease by_policy() = 0;
  // One attempt; empty when Redis did not answer (recorded).
  virtual std::optional<Acquisition> once() = 0;
  // Records a refusal.
  virtual void refused(const Acquisition& refusal) = 0;
};

class StepHook {
 public:
  virtual ~StepHook() = default;

  // Returns when the strategy may take `step`; throws to stop its increment.
  virtual void before(lab::Step) {}
  virtual Lease acquire(Acquiring& lock) { return lock.by_policy(); }
  // The lease under `token` was granted. `extend` (a watchdog's, else empty) renews it once and says
  // whether it did. True when the hook calls it from now on, so the strategy runs no watchdog thread.
  virtual bool granted(const Token&, const std::function<bool()>& /*extend*/) { return false; }
  // The lease's watchdog stopped: `extend` is not to be called again.
  virtual void watchdog_stopped() {}
  // The increment starts again from the acquisition, for the `restarts`-th time; throws to stop it.
  virtual void restarting(int /*restarts*/) {}
};

}  // namespace rlock::strategy
