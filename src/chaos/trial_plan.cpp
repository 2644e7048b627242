#include "chaos/campaign.h"

namespace rlock::chaos {

TrialPlan plan_trials(const Campaign& campaign) {
  TrialPlan plan;
  auto add_row = [&](lab::Strategy s, const std::optional<protocol::ClientSpec>& client) {
    for (Fault f : campaign.faults) {
      std::string_view why_not = client ? not_applicable_to_client(f, *client) : not_applicable(s, f);
      if (!why_not.empty()) continue;  // its cell prints n/a
      for (int n = 0; n < campaign.trials; ++n) {
        (f->one_at_a_time() ? plan.one_by_one : plan.side_by_side).push_back({s, f, n, client});
      }
    }
  };
  for (lab::Strategy s : campaign.strategies) add_row(s, std::nullopt);
  for (const protocol::ClientSpec& c : campaign.clients) add_row(lab::Strategy::ttl, c);
  return plan;
}

long long most_trials(const Campaign& campaign) {
  auto rows = static_cast<long long>(campaign.strategies.size() + campaign.clients.size());
  return rows * static_cast<long long>(campaign.faults.size()) * campaign.trials;
}

std::vector<TrialSpec> all_trials(const Campaign& campaign) {
  TrialPlan plan = plan_trials(campaign);
  plan.side_by_side.insert(plan.side_by_side.end(), plan.one_by_one.begin(), plan.one_by_one.end());
  return plan.side_by_side;
}

}  // namespace rlock::chaos
