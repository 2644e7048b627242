#include "card/verdict.h"

#include <gtest/gtest.h>

namespace rlock::card {
namespace {

using checker::Validity;

protocol::ClientSpec client(const std::string& name) { return protocol::ClientSpec{name, "true", 1, false}; }

// A judged trial of `row` under `fault` that lost nothing, taking `ms`.
checker::TrialResult trial(const std::string& row, std::string_view fault, double ms = 1000) {
  checker::TrialResult r;
  r.spec.fault = chaos::fault_named(fault);
  r.spec.client = client(row);
  for (checker::CheckResult* check : {&r.lost, &r.overlaps, &r.fences, &r.balance}) check->validity = Validity::valid;
  r.ok_ops = 2;
  r.judged = true;
  r.ms = ms;
  return r;
}

Subject subject_with_fenced() {
  Subject s{client("lib"), client("lib-fenced"), "lib 1.0", 1, "1.0", {}, {}};
  return s;
}

TEST(LibraryVerdict, ATallyCountsEachTrialAsTheClassificationSaysAndAJudgedClientErrorAmongTheClientErrors) {
  checker::TrialResult lost = trial("lib", "pause"), refused = trial("lib", "pause"), stuck = trial("lib", "pause");
  lost.lost = {Validity::invalid, "", 50, 1};
  lost.client_error = "it exited";  // after its stale write: judged all the same
  refused.failed_ops = 1;
  refused.ok_ops = 1;
  stuck.stuck_ops = 1;
  checker::TrialResult unjudged = trial("lib", "pause");
  unjudged.judged = false;
  unjudged.client_error = "it exited before writing";
  Tally t;
  for (const checker::TrialResult* r : {&lost, &refused, &stuck, &unjudged}) t.add(*r);
  EXPECT_EQ(t.judged, 3);
  EXPECT_EQ(t.unjudged, 1);
  EXPECT_EQ(t.money, 1);
  EXPECT_EQ(t.lost, 1);
  EXPECT_EQ(t.client_errors, 1);
  EXPECT_EQ(t.liveness, 1);
  EXPECT_EQ(t.stuck, 1);
  EXPECT_EQ(t.failed_safely, 1);
  EXPECT_EQ(tally_text(t), "money 1/3 (95% 6-80%): lost updates 1; stuck 1; 1 not judged; client errors 1");
}

TEST(LibraryVerdict, EachFaultTalliesTheClientAndItsFencedVariantApartAndTheShortestMoneyLossIsKept) {
  std::vector<chaos::Fault> faults{chaos::fault_named("none"), chaos::fault_named("pause")};
  checker::TrialResult slow_loss = trial("lib", "pause", 3000), quick_loss = trial("lib", "pause", 2000);
  slow_loss.lost = {Validity::invalid, "", 30, 1};
  quick_loss.overlaps.validity = Validity::invalid;
  checker::TrialResult failed = trial("lib-fenced", "pause", 500);
  failed.failed_ops = 2;
  failed.ok_ops = 0;
  checker::TrialResult unjudged = trial("lib", "none");
  unjudged.client_error = "it exited";
  unjudged.judged = false;
  LibraryVerdict v =
      verdict_of(subject_with_fenced(), faults,
                 {trial("lib", "none"), unjudged, slow_loss, quick_loss, failed, trial("lib-fenced", "none")});
  ASSERT_EQ(v.faults.size(), 2u);
  EXPECT_EQ(v.faults[0].client.judged, 1);
  EXPECT_EQ(v.faults[0].client.unjudged, 1);
  EXPECT_EQ(v.faults[1].client.money, 2);
  EXPECT_EQ(v.faults[1].client.lost, 1);
  EXPECT_EQ(v.faults[1].client.overlaps, 1);
  ASSERT_TRUE(v.faults[1].fenced);
  EXPECT_EQ(v.faults[1].fenced->liveness, 1);
  EXPECT_EQ(v.faults[1].fenced->money, 0);
  ASSERT_TRUE(v.shortest_loss);
  EXPECT_EQ(v.shortest_loss->ms, 2000);
  EXPECT_TRUE(v.money_lost());
  EXPECT_EQ(v.money_faults(), "pause");
  EXPECT_EQ(verdict_line(v), "verdict: lib loses money under pause");
  EXPECT_EQ(tally_text(v.faults[1].client), "money 2/2 (95% 34-100%): lost updates 1, two holders 1");
  EXPECT_EQ(tally_text(v.faults[0].client), "nothing lost 0/1 (95% 0-80%); 1 not judged");
  EXPECT_EQ(tally_text(*v.faults[1].fenced), "liveness 1/1 (95% 20-100%): no progress 1");
  EXPECT_NE(instead_text(v).find("lib-fenced lost no money under them (1 trial, 95% 0-80%)"), std::string::npos)
      << instead_text(v);
  EXPECT_THROW(check_verdict(v), MoneyLost);
}

TEST(LibraryVerdict, TheStrategiesOfferedInsteadKeepTheMoneyUnderEveryFaultTheClientLostItUnder) {
  LibraryVerdict v{"lib", "", {{chaos::fault_named("pause"), {}, std::nullopt}}, std::nullopt, {}, {}};
  v.faults[0].client.judged = v.faults[0].client.money = 1;
  std::vector<lab::Strategy> safe = safe_instead(v);
  auto has = [&](lab::Strategy s) { return std::find(safe.begin(), safe.end(), s) != safe.end(); };
  EXPECT_TRUE(has(lab::Strategy::fenced_claim));
  EXPECT_TRUE(has(lab::Strategy::pg_row_lock));
  EXPECT_FALSE(has(lab::Strategy::ttl)) << "ttl loses money under pause";
  EXPECT_FALSE(has(lab::Strategy::watchdog));
}

TEST(LibraryVerdict, LivenessAloneAndNothingLostAreTheirOwnVerdicts) {
  std::vector<chaos::Fault> faults{chaos::fault_named("pause")};
  checker::TrialResult failed = trial("lib", "pause");
  failed.failed_ops = 2;
  failed.ok_ops = 0;
  Subject s{client("lib"), std::nullopt, "", 1, "", {}, {}};
  LibraryVerdict liveness = verdict_of(s, faults, {failed});
  EXPECT_EQ(verdict_line(liveness), "verdict: lib lost no money; increments stuck or none succeeding under pause");
  EXPECT_THROW(check_verdict(liveness), LivenessLost);
  LibraryVerdict safe = verdict_of(s, faults, {trial("lib", "pause")});
  EXPECT_EQ(verdict_line(safe), "verdict: lib lost nothing in 1 trial under 1 faults");
  EXPECT_NO_THROW(check_verdict(safe));
  checker::TrialResult fenced = trial("lib", "pause");  // the stale holder refused, the other's increment done
  fenced.failed_ops = 1;
  fenced.ok_ops = 1;
  LibraryVerdict fence_working = verdict_of(s, faults, {fenced});
  EXPECT_EQ(tally_text(fence_working.faults[0].client), "nothing lost 0/1 (95% 0-80%); failed safely 1");
  EXPECT_NO_THROW(check_verdict(fence_working)) << "a fence that refuses a stale holder is no loss";
}

TEST(Ttl, ALibraryOfWholeSecondsHasItsTtlRoundedUpAndSaysSo) {
  Subject s{client("secs"), std::nullopt, "", 1000, "", {}, {}};
  EXPECT_EQ(ttl_for(s, std::nullopt).ttl.count(), kDefaultTtlMs);
  EXPECT_EQ(ttl_for(s, std::nullopt).rounded, "");
  Ttl rounded = ttl_for(s, 1500);
  EXPECT_EQ(rounded.ttl.count(), 2000);
  EXPECT_EQ(rounded.rounded, "secs's library counts its TTL in whole seconds: --ttl 1500 is judged as 2000 ms");
  s.ttl_step_ms = 1;
  EXPECT_EQ(ttl_for(s, 1500).ttl.count(), 1500);
  EXPECT_EQ(ttl_for(s, 1500).rounded, "");
}

TEST(Faults, OnlyThoseThatApplyToTheClientsServerKind) {
  protocol::ClientSpec etcd = client("e");
  etcd.server = protocol::ServerKind::etcd;
  std::vector<chaos::Fault> faults = faults_for(etcd, {}, false);
  auto named = [&](std::string_view n) {
    return std::find(faults.begin(), faults.end(), chaos::fault_named(n)) != faults.end();
  };
  EXPECT_TRUE(named("pause"));
  EXPECT_FALSE(named("redis-restart"));
  EXPECT_FALSE(named("clock-skew"));  // its runtime is not one libfaketime is known to reach
  EXPECT_EQ(faults_for(etcd, {"pause", "pause"}, false).size(), 1u);
  EXPECT_THROW(faults_for(etcd, {"failover"}, false), UsageError);
  EXPECT_THROW(faults_for(client("r"), {"clock-skew"}, false), UsageError);
  EXPECT_THROW(faults_for(client("r"), {"session-expiry"}, false), UsageError);
}

TEST(Faults, EachTopologyTheManifestListsWithTheFaultsThatApplyThere) {
  protocol::ClientSpec etcd = client("e");
  etcd.server = protocol::ServerKind::etcd;
  ASSERT_EQ(topologies_for(etcd, {}, false, std::nullopt).size(), 1u) << "one server alone by default";
  EXPECT_THROW(topologies_for(etcd, {}, false, chaos::Topology::cluster), UsageError);
  EXPECT_THROW(topologies_for(etcd, {"leader-pause"}, false, std::nullopt), UsageError);
  etcd.cluster = true;
  std::vector<JudgedTopology> both = topologies_for(etcd, {"pause", "leader-pause"}, false, std::nullopt);
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[0].topology, chaos::Topology::single);
  EXPECT_EQ(both[0].faults, std::vector<chaos::Fault>{chaos::fault_named("pause")});
  EXPECT_EQ(both[1].topology, chaos::Topology::cluster);
  EXPECT_EQ(both[1].faults,
            (std::vector<chaos::Fault>{chaos::fault_named("pause"), chaos::fault_named("leader-pause")}));
  std::vector<JudgedTopology> cluster = topologies_for(etcd, {"leader-pause"}, false, std::nullopt);
  ASSERT_EQ(cluster.size(), 1u) << "a topology none of the faults applies to is left out";
  EXPECT_EQ(cluster[0].topology, chaos::Topology::cluster);
  EXPECT_THROW(topologies_for(etcd, {"failover"}, false, std::nullopt), UsageError);
}

TEST(Faults, ThoseOfHistoriesAreThoseAHistoryCanStrike) {
  std::vector<chaos::Fault> faults = faults_for(client("r"), {}, true);
  EXPECT_NE(std::find(faults.begin(), faults.end(), chaos::fault_named("pause")), faults.end());
  EXPECT_EQ(std::find(faults.begin(), faults.end(), chaos::fault_named("redis-restart")), faults.end());
  EXPECT_EQ(faults_for(client("r"), {"kill"}, true).size(), 1u);
  EXPECT_THROW(faults_for(client("r"), {"redis-restart"}, true), UsageError);
}

}  // namespace
}  // namespace rlock::card
