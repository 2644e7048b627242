// A fault of a chaos trial, the whole of it in one place: one file in src/chaos/faults/ each says
// which strategies and clients the fault can touch (and why not, otherwise), what it draws from the
// trial's schedule, how its trials run (through proxies, on servers of their own, one at a time),
// how it strikes and heals a built-in worker or a protocol client, Redis's host or the network,
// and how it knows it struck. The registry (registry.cpp) lists the faults, in the order of the
// table and of the run files, which name a fault by its name. Nothing outside this folder asks
// which fault it has: it asks the fault.
//
// A FaultModel is stateless, one per fault, living as long as the program; Fault is a handle to
// one, a plain value. Both are thread-safe; a strike runs on its trial's thread.
#pragma once

#include <any>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lab/strategy.h"
#include "protocol/client_spec.h"

namespace rlock::lab {
struct Event;
struct WorkerPlan;
}  // namespace rlock::lab

namespace rlock::util {
class SeededRandom;
}  // namespace rlock::util

namespace rlock::chaos {

class Participants;
struct Schedule;
struct TrialContext;

// A strike returns what heals it (empty: nothing heals a crash).
using Heal = std::function<void()>;
using Strike = std::function<Heal()>;

// The schedule as a fault draws into it (schedule.cpp): its draws come in the order they are
// asked for, which the schedule's golden file fixes.
struct ScheduleDraw {
  util::SeededRandom& rng;
  Schedule& schedule;
  double ttl_s;

  double uniform(double low, double high);
  lab::WorkerPlan& target();
  // Keeps what the fault drew for itself, a value of a type its own file defines, in the schedule
  // (Schedule::fault_draws); the file reads it back with drawn_by_fault (schedule.h).
  void keep(std::any drawn);
};

// When a fault that strikes the target's process strikes a protocol client, whose read the harness
// answers after the worker's work time: at its read, just before its answer is sent, or just after;
// strike_after_s after its read, as a built-in worker; or when it announced the step strike_step()
// names, before it is let take it (a client that announces no step is not struck).
enum class ClientStrike { at_read, before_answer, after_answer, after_read, at_step };

class FaultModel {
 public:
  virtual ~FaultModel() = default;

  // Its name in the table, on the command line and in stored runs.
  virtual std::string_view name() const = 0;

  // Why it cannot strike or cannot matter to `strategy`, by construction; empty when it can. Such
  // a cell is not run and prints n/a (docs/chaos.md).
  virtual std::string_view not_applicable(lab::Strategy) const { return {}; }
  // The same for a protocol client whose lock lives on a server of that kind.
  virtual std::string_view not_applicable_to_client(protocol::ServerKind) const { return {}; }
  // Whether `strategy` promises no anomaly under it. By default those where the database decides.
  virtual bool expected_safe(lab::Strategy strategy) const;

  // What it draws: first the target's work (before the pause's length, which every trial draws),
  // then the rest.
  virtual void draw_work(ScheduleDraw&) const {}
  virtual void draw_rest(ScheduleDraw&) const {}
  // What it drew for itself (ScheduleDraw::keep), by name (a value a worker: the name once a worker,
  // in their order): the schedule's golden file prints them.
  virtual std::vector<std::pair<std::string_view, double>> own_draws(const Schedule&) const { return {}; }
  // How fast the target's clock runs: 1, the host's, unless the fault skews it.
  virtual double target_clock_rate(const Schedule&) const { return 1; }
  // How much longer, at most, it makes the workers' steps take in all (the trial's time limit).
  virtual double added_seconds(const Schedule&) const { return 0; }

  // A FaultProxy between each worker and each server (network.h).
  virtual bool through_proxies() const { return false; }
  // It crashes, fails over or stops a Redis server: it needs servers rlock started itself.
  virtual bool strikes_server() const { return false; }
  // It crashes the shared Redis: its trials run one at a time, after the others.
  virtual bool one_at_a_time() const { return false; }
  // `rlock chaos --netns` runs it (netns_job.h).
  virtual bool runs_in_netns() const { return false; }
  // A trial of one Redis runs on a Redis of the job's own, on the job's failover ports.
  virtual bool runs_own_redis() const { return false; }
  // It strikes a member of a cluster (`--topology cluster`); on one server it is n/a.
  virtual bool needs_cluster() const { return false; }
  // Sets up the trial's servers of its own before its workers start.
  virtual void set_up(TrialContext&) const {}
  // A protocol client's trial: what it does when the trial's clock starts, once the clients started.
  virtual void clock_started(TrialContext&) const {}
  // The cell of a single Redis splits in two by whether the lock reached the replica (checker/tally.h).
  virtual bool splits_by_replica() const { return false; }

  // Its strike on the trial's target worker (among `workers`), on Redis's host or on the network;
  // empty when nothing strikes. It strikes once, after the target's read (strike_after_s,
  // client_strike), unless the target finished first, and is healed heal_after_s after it struck
  // or when the trial ends.
  virtual Strike strike(TrialContext&, Participants&) const { return {}; }
  // A built-in worker's trial: how long after the target's read it strikes.
  virtual double strike_after_s(const Schedule&) const { return 0; }
  // A protocol client's trial: when it strikes.
  virtual ClientStrike client_strike() const { return ClientStrike::at_read; }
  // With ClientStrike::at_step: the step of the target's library it waits for (protocol/messages.h).
  virtual std::string_view strike_step() const { return {}; }
  // How long after its strike it is healed (by default the schedule's pause).
  virtual double heal_after_s(const Schedule& schedule) const;
  // What it does every kTick (trial_loop.h) all along the trial; empty: nothing.
  virtual std::function<void()> tick(TrialContext&) const { return {}; }
  // A protocol client's trial: the NAME=VALUE variables the target's client process starts with,
  // beside its own; none by default.
  virtual std::vector<std::string> target_client_environment(const Schedule&) const { return {}; }
  // Whether it acts through the target client's own clock, which only a client whose runtime
  // libfaketime reaches has (protocol::ClientSpec::skewable_clock).
  virtual bool skews_client_clock() const { return false; }
  // A protocol client's trial: how long the harness, which is the client's database, holds the
  // target's first write before it applies it; nullopt: it does not.
  virtual std::optional<double> held_write_s(const Schedule&) const { return std::nullopt; }

  // Whether it struck, by the run's events. By default: the nemesis recorded an act of its own (a
  // signal, a crash, a failover, a cut: events of "host").
  virtual bool struck(const Schedule& schedule, const std::vector<lab::Event>& events) const;
};

// One of the registry's faults.
class Fault {
 public:
  Fault();                                            // none
  Fault(const FaultModel& model) : model_(&model) {}  // NOLINT: a fault is its model

  const FaultModel& operator*() const { return *model_; }
  const FaultModel* operator->() const { return model_; }
  friend bool operator==(const Fault&, const Fault&) = default;

 private:
  const FaultModel* model_;
};

inline std::string_view to_string(Fault fault) { return fault->name(); }
// Every fault, in the registry's order.
const std::vector<Fault>& all_faults();
std::optional<Fault> fault_from(std::string_view name);
// The fault of that name; throws Error for a name no fault has.
Fault fault_named(std::string_view name);

// What an explored order did to the world, kept as the fault of its trial (docs/explore.md): the
// nemesis operations it may take (`expire`, `failover`), joined by '+' in the order given. One of
// the registry's faults when `operations` is one that has its name (pause, failover); otherwise a
// fault of its own that strikes nothing in a campaign (rlock explore and --replay-order make its
// moves) and otherwise acts as every fault does by default. Empty: none.
Fault explored_fault(const std::vector<std::string_view>& operations);
// A fault as a stored run names it: one of the registry's, or an explored one (names of nemesis
// operations joined by '+').
std::optional<Fault> recorded_fault_from(std::string_view name);

}  // namespace rlock::chaos
