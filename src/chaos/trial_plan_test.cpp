// The trial plan cut into shards (campaign.h): the N shards of a campaign are its whole plan, each
// trial in one shard only, about as many in each; a run's cap counts the trials it plans.
#include <algorithm>
#include <map>

#include <gtest/gtest.h>

#include "chaos/campaign.h"
#include "chaos/chaos.h"
#include "store/run_file.h"
#include "store/trial_line.h"

namespace rlock::chaos {
namespace {

Campaign campaign_of(int trials, Shard shard = {}) {
  Campaign c{lab::all_strategies(), {}, all_faults(), trials, 4};
  c.clients.push_back(protocol::ClientSpec{"py", "true", 1, false});
  c.shard = shard;
  return c;
}

TEST(TrialPlan, TheShardsOfACampaignAreItsWholePlanEachTrialOnce) {
  for (int count : {1, 2, 3, 7, 50}) {
    std::map<store::TrialKey, int> seen;
    std::vector<std::size_t> sizes;
    for (int k = 1; k <= count; ++k) {
      std::vector<TrialSpec> part = all_trials(campaign_of(5, Shard{k, count}));
      sizes.push_back(part.size());
      for (const TrialSpec& spec : part) ++seen[store::trial_key(spec)];
    }
    std::vector<TrialSpec> whole = all_trials(campaign_of(5));
    ASSERT_EQ(seen.size(), whole.size()) << count << " shards";
    for (const TrialSpec& spec : whole) EXPECT_EQ(seen[store::trial_key(spec)], 1) << count << " shards";
    auto [fewest, most] = std::minmax_element(sizes.begin(), sizes.end());
    EXPECT_LE(*most - *fewest, 1u) << count << " shards";
  }
}

TEST(TrialPlan, AShardKeepsThePlansOrderAndTheRestartsLast) {
  std::vector<TrialSpec> whole = all_trials(campaign_of(4)), part = all_trials(campaign_of(4, Shard{2, 3}));
  std::vector<TrialSpec> expected;
  std::copy_if(whole.begin(), whole.end(), std::back_inserter(expected), [&](const TrialSpec& s) {
    return std::any_of(part.begin(), part.end(),
                       [&](const TrialSpec& p) { return store::trial_key(p) == store::trial_key(s); });
  });
  ASSERT_EQ(part.size(), expected.size());
  for (std::size_t i = 0; i < part.size(); ++i) EXPECT_EQ(store::trial_key(part[i]), store::trial_key(expected[i]));
}

TEST(TrialPlan, PlannedTrialsLeaveOutTheCellsThatCannotRun) {
  Campaign c = campaign_of(3);
  EXPECT_EQ(planned_trials(c), static_cast<long long>(all_trials(c).size()));
  long long cells = static_cast<long long>((c.strategies.size() + c.clients.size()) * c.faults.size());
  EXPECT_LT(planned_trials(c), cells * c.trials);  // pg-row-lock under redis-restart is n/a
}

// Every strategy under every fault, at the most trials a cell whose plan fits the cap: a run of it is
// read, one trial a cell more is not, and the n/a cells, which run nothing, do not count.
TEST(TrialPlan, TheCapOfARunCountsTheTrialsItPlans) {
  Campaign c{lab::all_strategies(), {}, all_faults(), 1, 4};
  c.trials = static_cast<int>(kMaxTrialsARun / static_cast<long long>(planned_cells(c).size()));
  ASSERT_LE(planned_trials(c), kMaxTrialsARun);
  EXPECT_GT(static_cast<long long>(c.strategies.size() * c.faults.size()) * c.trials, kMaxTrialsARun);
  EXPECT_NO_THROW(store::run_file_from(store::run_file_json(c, ChaosSetup{})));
  c.trials += 1;
  EXPECT_THROW(store::run_file_from(store::run_file_json(c, ChaosSetup{})), Error);
}

// A client's clock-skew cell runs only where libfaketime reaches its clock: the run keeps that word,
// so that reading the run back plans the same trials.
TEST(TrialPlan, ARunReadBackPlansAClientsClockSkewTrialsAsTheCampaignDid) {
  Campaign c{{}, {protocol::ClientSpec{"jvm", "java -jar client.jar"}}, {fault_named("clock-skew")}, 2, 1};
  c.clients[0].skewable_clock = true;
  Campaign back = store::run_file_from(store::run_file_json(c, ChaosSetup{})).campaign;
  EXPECT_TRUE(back.clients.at(0).skewable_clock);
  EXPECT_EQ(planned_trials(back), planned_trials(c));
  EXPECT_EQ(planned_trials(c), 2);
  c.clients[0].skewable_clock = false;
  EXPECT_EQ(planned_trials(store::run_file_from(store::run_file_json(c, ChaosSetup{})).campaign), 0);
}

// A history of up to 8 workers keeps their number in its run, and its trials are read back with
// as many (a scenario's 2 to 4 were once the only ones).
TEST(TrialPlan, ARunReadBackKeepsAHistorysWorkers) {
  Campaign c{{}, {protocol::ClientSpec{"py", "true"}}, {fault_named("pause")}, 2, 1};
  ChaosSetup setup;
  setup.workload = Workload{.workers = kMaxHistoryWorkers, .increments = 3};
  EXPECT_EQ(setup.trial_workers(), kMaxHistoryWorkers);
  EXPECT_EQ(store::run_file_from(store::run_file_json(c, setup)).setup.trial_workers(), kMaxHistoryWorkers);
  setup.workload = Workload{};
  EXPECT_EQ(store::run_file_from(store::run_file_json(c, setup)).setup.trial_workers(), 0) << "drawn, 2 to 4";
}

// A history's run keeps its workload and its schedule; a schedule chaos would refuse is refused.
TEST(TrialPlan, ARunReadBackKeepsAHistorysWorkloadAndSchedule) {
  Campaign c{{}, {protocol::ClientSpec{"py", "true"}}, {fault_named("lost-reply")}, 2, 1};
  ChaosSetup setup;
  setup.workload = Workload{.workers = 2, .duration_s = 4};
  setup.nemesis = parse_schedule("lost-reply:A on release#1 for 400ms; slow:A on read#4", 2);
  ChaosSetup back = store::run_file_from(store::run_file_json(c, setup)).setup;
  EXPECT_EQ(back.workload, setup.workload);
  EXPECT_EQ(back.nemesis, setup.nemesis);
  setup.workload = Workload{.workers = 3, .increments = 5};
  setup.nemesis.reset();
  back = store::run_file_from(store::run_file_json(c, setup)).setup;
  EXPECT_EQ(back.workload, setup.workload);
  EXPECT_FALSE(back.nemesis);
  nlohmann::json file = store::run_file_json(c, setup);
  file["setup"]["nemesis"] = "pause:D on read#2";
  EXPECT_THROW(store::run_file_from(file), Error) << "worker D of 3";
  file["setup"]["nemesis"] = "pause:A on read#6";
  EXPECT_THROW(store::run_file_from(file), Error) << "past 5 increments";
  file["setup"].erase("nemesis");
  file["setup"]["duration_s"] = 2;
  EXPECT_THROW(store::run_file_from(file), Error) << "increments and a duration";
}

}  // namespace
}  // namespace rlock::chaos
