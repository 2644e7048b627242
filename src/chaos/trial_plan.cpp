#include "chaos/campaign.h"

#include <fmt/format.h>

namespace rlock::chaos {

std::string shard_name(const Shard& shard) { return fmt::format("{}/{}", shard.index, shard.count); }

std::vector<TrialSpec> planned_cells(const Campaign& campaign) {
  std::vector<TrialSpec> cells;
  auto add_row = [&](lab::Strategy s, const std::optional<protocol::ClientSpec>& client) {
    for (Fault f : campaign.faults) {
      std::string_view why_not =
          client ? not_applicable_to_client(f, *client, campaign.topology) : not_applicable(s, f, campaign.topology);
      if (why_not.empty()) cells.push_back({s, f, 0, client});  // else its cell prints n/a
    }
  };
  for (lab::Strategy s : campaign.strategies) add_row(s, std::nullopt);
  for (const protocol::ClientSpec& c : campaign.clients) add_row(lab::Strategy::ttl, c);
  return cells;
}

bool in_shard(const Campaign& campaign, std::size_t cell, int number) {
  long long position = static_cast<long long>(cell) * campaign.trials + number;
  return position % campaign.shard.count == campaign.shard.index - 1;
}

long long planned_trials(const Campaign& campaign) {
  return static_cast<long long>(planned_cells(campaign).size()) * campaign.trials;
}

TrialPlan plan_trials(const Campaign& campaign) {
  TrialPlan plan;
  std::vector<TrialSpec> cells = planned_cells(campaign);
  for (std::size_t c = 0; c < cells.size(); ++c) {
    for (int n = 0; n < campaign.trials; ++n) {
      if (!in_shard(campaign, c, n)) continue;
      TrialSpec spec = cells[c];
      spec.number = n;
      (spec.fault->one_at_a_time() ? plan.one_by_one : plan.side_by_side).push_back(std::move(spec));
    }
  }
  return plan;
}

std::vector<TrialSpec> all_trials(const Campaign& campaign) {
  TrialPlan plan = plan_trials(campaign);
  plan.side_by_side.insert(plan.side_by_side.end(), plan.one_by_one.begin(), plan.one_by_one.end());
  return plan.side_by_side;
}

}  // namespace rlock::chaos
