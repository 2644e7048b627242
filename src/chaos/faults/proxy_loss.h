// What lost-reply and lost-request share: each arms the proxies between the target and the server
// its lock lives on (host/fault_proxy.h) at the target's `release` step (protocol/messages.h; a
// history arms it at any step), so it strikes only a protocol client that announces the step; it
// struck once the proxies dropped what they were armed to drop, recorded then (by the tick, or at
// the latest by the heal), not when armed. The heal disarms what has not struck. Each fault's own
// file says what is dropped. Stateless; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "chaos/faults/strikes.h"
#include "chaos/trial_context.h"
#include "protocol/messages.h"

namespace rlock::chaos {

class ProxyLoss : public FaultModel {
 public:
  std::string_view not_applicable(lab::Strategy) const override { return "no release step announced"; }
  bool through_proxies() const override { return true; }
  ClientStrike client_strike() const override { return ClientStrike::at_step; }
  std::string_view strike_step() const override { return protocol::kReleaseStep; }

  Strike strike(TrialContext& trial, Participants&) const override {
    return [this, &trial]() -> Heal {
      arm(trial);
      return [this, &trial] {
        record_if_lost(trial);
        disarm(trial);
      };
    };
  }
  std::function<void()> tick(TrialContext& trial) const override {
    return [this, &trial] { record_if_lost(trial); };
  }

 protected:
  virtual void arm(TrialContext& trial) const = 0;
  virtual void disarm(TrialContext& trial) const = 0;
  // The strikes on the target's proxies since the last call.
  virtual std::uint64_t take_lost(TrialContext& trial) const = 0;
  // The run log's words for a strike: "its release's reply lost, its connections reset".
  virtual std::string_view what_was_lost() const = 0;

 private:
  void record_if_lost(TrialContext& trial) const {
    if (!trial.network || take_lost(trial) == 0) return;
    record_network(trial.run_log(), target_name(trial), std::string(what_was_lost()));
  }
};

}  // namespace rlock::chaos
