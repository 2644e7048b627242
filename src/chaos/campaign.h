// What a chaos campaign runs: its strategies and clients under its faults, its trials a cell, its
// jobs and its shard, with its bounds; and its plan, the trials of every cell (trial_plan.cpp).
// run_campaign.h runs it.
//
// Plain values and pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "chaos/chaos.h"

namespace rlock::chaos {

// The K-th of N disjoint parts of a campaign's trial plan (`rlock chaos --shard K/N`, K from 1):
// trial n of the c-th cell that runs trials (planned_cells) is in shard (c * trials + n) mod N + 1,
// so every shard holds about as many trials of each cell as the others. 1/1 is the whole plan.
struct Shard {
  int index = 1;
  int count = 1;

  bool whole() const { return count == 1; }
  bool operator==(const Shard&) const = default;
};
// "K/N".
std::string shard_name(const Shard& shard);
inline constexpr int kMaxShards = 100'000;

// What a campaign runs: every strategy and client under every fault, `trials` times each, in
// `jobs` processes; of those trials, the ones of `shard`.
struct Campaign {
  std::vector<lab::Strategy> strategies;
  std::vector<protocol::ClientSpec> clients;
  std::vector<Fault> faults;
  int trials = 200;
  int jobs = 8;
  Shard shard{};
  Topology topology = Topology::single;  // which cells are n/a depends on it
};

// A campaign's bounds, as `rlock chaos` takes it and a stored run's reader checks it; a run's trials
// are its planned ones (planned_trials: an n/a cell runs none).
inline constexpr int kMaxTrialsACell = 100'000;
inline constexpr long long kMaxTrialsARun = 1'000'000;
inline constexpr int kMaxJobs = 64;
inline constexpr long kMinTtlMs = 20, kMaxTtlMs = 60'000;
inline constexpr int kMinOwnPort = 1024, kMaxOwnPort = 65'000;  // --failover-port, --redlock-port
// --account: a campaign's first account, apart from the labs' (1) and bench's (9700 on); its last
// (a run's trials at most past it) stays a PostgreSQL integer.
inline constexpr long kMinFirstAccount = 100'000, kMaxFirstAccount = 1'000'000'000;

// The cells that run trials (not n/a), in the plan's order, each as its trial number 0: the
// strategies' rows, then the clients', each under every fault. Whatever the shard.
std::vector<TrialSpec> planned_cells(const Campaign& campaign);
// Whether trial `number` of the `cell`-th planned cell is in the campaign's shard.
bool in_shard(const Campaign& campaign, std::size_t cell, int number);
// The trials of the whole plan (planned cells times trials), whatever the shard.
long long planned_trials(const Campaign& campaign);

// The campaign's trials (its shard's): those run side by side, then the redis-restart ones, run one
// at a time (each crashes the shared Redis). all_trials is both in one list: the order of
// run_campaign's results.
struct TrialPlan {
  std::vector<TrialSpec> side_by_side, one_by_one;
};
TrialPlan plan_trials(const Campaign& campaign);
std::vector<TrialSpec> all_trials(const Campaign& campaign);

// The error of a trial whose job process died before it reported.
inline constexpr const char* kNoResult = "the trial reported no result (its job process died)";
// The error of a trial not run because the campaign was interrupted.
inline constexpr const char* kNotRunInterrupted = "not run: the campaign was interrupted";

}  // namespace rlock::chaos
