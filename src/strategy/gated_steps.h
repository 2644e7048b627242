// The step hook of `rlock explore`'s workers: the explorer's gate (lab/step_gate.h) let in. Each
// step waits at the gate; the lock is asked for once per acquire step (twice when Redis left the
// first attempt unanswered: the first command after a restart finds the connection lost), every
// refusal said, and the increment gives up at its refusal number K + 1 (K the gate's bound), counted
// over all its acquisitions, or at its restart number K; a watchdog extends only when the gate calls
// the extension it was given. Not thread-safe: the worker's thread, and the gate's calls of the
// extension while that thread waits.
#pragma once

#include <string>

#include "lab/step_gate.h"
#include "strategy/step_hook.h"

namespace rlock::strategy {

class GatedSteps final : public StepHook {
 public:
  GatedSteps(std::string worker, long long amount, lab::StepGate& gate)
      : name_(std::move(worker)), amount_(amount), gate_(gate) {}

  // A new increment: its refusals counted from zero.
  void start() { refusals_ = 0; }

  void before(lab::Step step) override { gate_.before(name_, step); }
  Lease acquire(Acquiring& lock) override;
  bool granted(const Token& token, const std::function<bool()>& extend) override {
    gate_.granted(name_, token, extend);
    return true;
  }
  void watchdog_stopped() override { gate_.watchdog_stopped(name_); }
  void restarting(int restarts) override;

 private:
  std::string name_;
  long long amount_;
  lab::StepGate& gate_;
  int refusals_ = 0;
};

}  // namespace rlock::strategy
