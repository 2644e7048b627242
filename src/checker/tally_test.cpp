#include "checker/tally.h"

#include <algorithm>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "chaos/faults/fault.h"
#include "chaos/generator.h"
#include "checker/classification.h"
#include "host/temp_dir.h"
#include "protocol/client_list.h"
#include "results/chaos_file.h"
#include "runner/run_campaign.h"

namespace rlock::checker {

using lab::Strategy;

namespace {

Cell cell(Strategy strategy, chaos::Fault fault, long anomalies) {
  Cell c{
      .row = std::string(to_string(strategy)), .fault = fault, .expected_safe = chaos::expected_safe(strategy, fault)};
  c.trials = 10;
  c.anomalies = anomalies;
  return c;
}

TEST(CheckExpectedSafe, AnAnomalyOfAnExpectedSafeCellIsTheCampaignsVerdict) {
  std::vector<Cell> cells{cell(Strategy::ttl, chaos::fault_named("pause"), 10),
                          cell(Strategy::fenced_claim, chaos::fault_named("pause"), 1)};
  try {
    check_expected_safe(cells);
    FAIL() << "no UnexpectedAnomaly";
  } catch (const UnexpectedAnomaly& e) {
    EXPECT_STREQ(e.what(), "anomalies where none were expected: fenced-claim under pause");
  }
}

TEST(CheckExpectedSafe, AnomaliesWhereTheyAreExpectedPass) {
  EXPECT_NO_THROW(check_expected_safe({cell(Strategy::ttl, chaos::fault_named("pause"), 10),
                                       cell(Strategy::pg_row_lock, chaos::fault_named("kill"), 0)}));
}

// A judged trial of `strategy` under `fault`: every checker valid unless `lost` money.
TrialResult judged(Strategy strategy, chaos::Fault fault, int number, long long lost = 0) {
  CheckResult valid{Validity::valid, "", 0, 0};
  TrialResult r{.spec = {strategy, fault, number, std::nullopt},
                .lost = valid,
                .overlaps = valid,
                .fences = valid,
                .ok_ops = 2,
                .judged = true};
  if (lost > 0) r.lost = {Validity::invalid, "lost", lost, 0};
  return r;
}

TrialResult not_run(Strategy strategy, chaos::Fault fault, int number, bool harness_lost) {
  return TrialResult{.spec = {strategy, fault, number, std::nullopt},
                     .error = "PostgreSQL at 127.0.0.1:5448/bank: connection refused",
                     .not_run = true,
                     .harness_lost = harness_lost};
}

TEST(Tabulate, EveryOutcomeIsCountedInItsColumn) {
  TrialResult a = judged(Strategy::ttl, chaos::fault_named("kill"), 0);
  a.unknown_ops = 1;
  a.struck = true;
  TrialResult b = judged(Strategy::ttl, chaos::fault_named("kill"), 1, 40);
  b.stuck_ops = 2;
  b.failed_ops = 1;
  b.failed_amount = 7;
  b.struck = true;
  TrialResult c = judged(Strategy::ttl, chaos::fault_named("kill"), 2);
  chaos::Campaign campaign{{Strategy::ttl}, {}, {chaos::fault_named("kill")}, 3, 1};
  std::vector<Cell> cells = tabulate(campaign, {a, b, c});
  ASSERT_EQ(cells.size(), 1U);
  EXPECT_EQ(cells[0].trials, 3);
  EXPECT_EQ(cells[0].struck, 2);
  EXPECT_EQ(cells[0].unknown, 1);
  EXPECT_EQ(cells[0].stuck, 2);
  EXPECT_EQ(cells[0].failed, 1);
  EXPECT_EQ(cells[0].failed_amount, 7);
  EXPECT_EQ(cells[0].lost, 1);
  EXPECT_EQ(cells[0].anomalies, 1);
}

// A trial that could not run (the harness lost PostgreSQL) is never an anomaly, and never in a
// rate's denominator: 1 anomaly in 2 judged trials, whatever the trials not run.
TEST(Tabulate, TrialsNotRunAreNeitherAnomaliesNorInTheRate) {
  std::vector<TrialResult> results{judged(Strategy::fenced_claim, chaos::fault_named("pause"), 0, 10),
                                   judged(Strategy::fenced_claim, chaos::fault_named("pause"), 1),
                                   not_run(Strategy::fenced_claim, chaos::fault_named("pause"), 2, true),
                                   not_run(Strategy::fenced_claim, chaos::fault_named("pause"), 3, false)};
  EXPECT_FALSE(anomaly(results[2]));
  EXPECT_FALSE(anomaly(results[3]));
  std::vector<Cell> cells =
      tabulate(chaos::Campaign{{Strategy::fenced_claim}, {}, {chaos::fault_named("pause")}, 4, 1}, results);
  EXPECT_EQ(cells[0].trials, 2);
  EXPECT_EQ(cells[0].not_run, 2);
  EXPECT_EQ(cells[0].anomalies, 1);
  EXPECT_DOUBLE_EQ(cells[0].rate(), 0.5);
}

// A failover of one Redis is two cells, by what the harness found on the replica; redlock's is one.
TEST(Tabulate, AFailoverSplitsLaggingFromInSyncTrials) {
  TrialResult lagging = judged(Strategy::ttl, chaos::fault_named("failover"), 0, 30);
  lagging.lock_reached_replica = false;
  TrialResult in_sync = judged(Strategy::ttl, chaos::fault_named("failover"), 1);
  in_sync.lock_reached_replica = true;
  TrialResult redlock = judged(Strategy::redlock, chaos::fault_named("failover"), 0);
  std::vector<Cell> cells =
      tabulate(chaos::Campaign{{Strategy::ttl, Strategy::redlock}, {}, {chaos::fault_named("failover")}, 2, 1},
               {lagging, in_sync, redlock});
  ASSERT_EQ(cells.size(), 3U);
  EXPECT_EQ(fault_label(cells[0]), "failover/lag");
  EXPECT_EQ(cells[0].trials, 1);
  EXPECT_EQ(cells[0].anomalies, 1);
  EXPECT_EQ(fault_label(cells[1]), "failover/sync");
  EXPECT_EQ(cells[1].trials, 1);
  EXPECT_EQ(cells[1].anomalies, 0);
  EXPECT_EQ(fault_label(cells[2]), "failover");
  EXPECT_EQ(cells[2].trials, 1);
}

// The PostgreSQL strategies never use Redis: its restart is n/a for them, and not run.
TEST(Tabulate, ACellThatCannotFailIsNotApplicable) {
  std::vector<Cell> cells = tabulate(
      chaos::Campaign{
          {Strategy::pg_row_lock}, {}, {chaos::fault_named("redis-restart"), chaos::fault_named("pause")}, 2, 1},
      {});
  EXPECT_EQ(cells[0].not_applicable, "Redis unused");
  EXPECT_TRUE(cells[1].not_applicable.empty());
  EXPECT_EQ(chaos::not_applicable(Strategy::pg_atomic, chaos::fault_named("pause")), "no lock held");
  EXPECT_TRUE(chaos::not_applicable(Strategy::ttl, chaos::fault_named("redis-restart")).empty());
}

// Hazelcast's members are not Redis, and the proxies reach one address, not its three members.
// A client of one's own declared on etcd (--client NAME@etcd=COMMAND) is out of the Redis faults'
// reach, as a shipped etcd adapter is.
TEST(Tabulate, AClientDeclaredOnEtcdIsOutOfTheRedisFaultsReach) {
  EXPECT_EQ(
      chaos::not_applicable_to_client(chaos::fault_named("redis-restart"), protocol::parse_client_spec("mine@etcd=x")),
      "Redis unused");
}

// On a cluster only an etcd client whose adapter takes the members runs; leader-pause needs one.
TEST(Tabulate, ACellTheTopologyCannotRunIsNotApplicable) {
  using chaos::Topology;
  protocol::ClientSpec etcd = protocol::parse_client_spec("mine@etcd=x");
  chaos::Fault leader_pause = chaos::fault_named("leader-pause"), pause = chaos::fault_named("pause");
  EXPECT_EQ(chaos::not_applicable_to_client(leader_pause, etcd), "no cluster");
  EXPECT_EQ(chaos::not_applicable_to_client(pause, etcd, Topology::cluster), "one server only")
      << "a command of one's own takes one server";
  etcd.cluster = true;
  EXPECT_EQ(chaos::not_applicable_to_client(leader_pause, etcd, Topology::cluster), "");
  EXPECT_EQ(chaos::not_applicable_to_client(pause, etcd, Topology::cluster), "");
  EXPECT_EQ(chaos::not_applicable_to_client(chaos::fault_named("redis-restart"), etcd, Topology::cluster),
            "Redis unused");
  protocol::ClientSpec redis{"mine", "x"};
  redis.cluster = true;
  EXPECT_EQ(chaos::not_applicable_to_client(pause, redis, Topology::cluster), "one server only");
  EXPECT_EQ(chaos::not_applicable(Strategy::ttl, pause, Topology::cluster), "one server only");
  EXPECT_EQ(chaos::not_applicable(Strategy::ttl, leader_pause), "no cluster");
}

TEST(Tabulate, OnlyTheFaultsOfItsOwnProcessReachAHazelcastClient) {
  protocol::ClientSpec client{"hz", "java -jar client.jar"};
  client.server = protocol::ServerKind::hazelcast;
  EXPECT_EQ(chaos::not_applicable_to_client(chaos::fault_named("redis-restart"), client), "Redis unused");
  EXPECT_EQ(chaos::not_applicable_to_client(chaos::fault_named("failover"), client), "Redis unused");
  EXPECT_EQ(chaos::not_applicable_to_client(chaos::fault_named("conn-drop"), client), "no proxy to its members");
  EXPECT_EQ(chaos::not_applicable_to_client(chaos::fault_named("session-expiry"), client), "no proxy to its members");
  EXPECT_EQ(chaos::not_applicable_to_client(chaos::fault_named("pause"), client), "");
  EXPECT_EQ(chaos::not_applicable_to_client(chaos::fault_named("pause-waiter"), client), "");
  client.server = protocol::ServerKind::zookeeper;
  EXPECT_EQ(chaos::not_applicable_to_client(chaos::fault_named("conn-drop"), client), "");
}

// libfaketime skews a client's clock: its clock-skew cell runs, the target's process preloading it
// at the drawn rate.
TEST(Tabulate, AClientUnderClockSkewRuns) {
  protocol::ClientSpec jvm{"jvm", "java -jar client.jar"};
  jvm.skewable_clock = true;
  chaos::Campaign campaign{{}, {jvm}, {chaos::fault_named("clock-skew"), chaos::fault_named("pause")}, 2, 1};
  std::vector<Cell> cells = tabulate(campaign, {});
  EXPECT_TRUE(cells[0].not_applicable.empty());
  // A client whose runtime libfaketime does not reach (or one's own, unless its catalogue says so).
  campaign.clients = {protocol::ClientSpec{"py", "python3 client.py"}};
  EXPECT_EQ(tabulate(campaign, {})[0].not_applicable, "clock not skewed");
  campaign.clients = {jvm};
  EXPECT_EQ(chaos::all_trials(campaign).size(), 4u);
  chaos::ChaosSetup setup;
  setup.seed = 2026;
  chaos::Fault skew = chaos::fault_named("clock-skew");
  chaos::Schedule schedule = chaos::schedule_for(chaos::TrialSpec{lab::Strategy::ttl, skew, 0, std::nullopt}, setup);
  std::vector<std::string> environment = skew->target_client_environment(schedule);
  ASSERT_EQ(environment.size(), 3u);
  EXPECT_TRUE(environment[0].starts_with("LD_PRELOAD=") && environment[0].ends_with("/libfaketime.so.1"));
  EXPECT_EQ(environment[1], fmt::format("FAKETIME=+0 x{:.6f}", skew->target_clock_rate(schedule)));
  EXPECT_NE(skew->target_clock_rate(schedule), 1);
  EXPECT_TRUE(chaos::fault_named("pause")->target_client_environment(schedule).empty());
}

// A lock in PostgreSQL (ShedLock's JDBC provider) feels no fault of Redis's and has no session.
TEST(Tabulate, APostgresClientUnderRedisFaultsIsNotApplicable) {
  protocol::ClientSpec client{"shed", "java -jar client.jar --jdbc"};
  client.server = protocol::ServerKind::postgres;
  chaos::Campaign campaign{
      {},
      {client},
      {chaos::fault_named("redis-restart"), chaos::fault_named("session-expiry"), chaos::fault_named("conn-drop")},
      2,
      1};
  std::vector<Cell> cells = tabulate(campaign, {});
  EXPECT_EQ(cells[0].not_applicable, "Redis unused");
  EXPECT_EQ(cells[1].not_applicable, "no session");
  EXPECT_TRUE(cells[2].not_applicable.empty());
}

TEST(CheckHarness, ALostServerIsOneLineWithTheTrialsCheckedAndNotRun) {
  std::vector<TrialResult> results{judged(Strategy::ttl, chaos::fault_named("none"), 0),
                                   not_run(Strategy::ttl, chaos::fault_named("none"), 1, true),
                                   not_run(Strategy::ttl, chaos::fault_named("none"), 2, true)};
  try {
    runner::check_harness(results);
    FAIL() << "no HarnessLost";
  } catch (const chaos::HarnessLost& e) {
    EXPECT_STREQ(e.what(),
                 "the campaign stopped: the harness lost PostgreSQL at 127.0.0.1:5448/bank: connection refused "
                 "(1 trials checked, 2 not run)");
  }
  EXPECT_NO_THROW(runner::check_harness({judged(Strategy::ttl, chaos::fault_named("none"), 0),
                                         not_run(Strategy::ttl, chaos::fault_named("none"), 1, false)}));
}

// chaos.json as the campaign writes it reads back cell by cell, the split failover's halves and an
// n/a cell with what tells them apart.
TEST(WriteJson, TheTableReadsBackCellByCell) {
  host::TempDir tmp("tally_test");
  TrialResult lagging = judged(Strategy::ttl, chaos::fault_named("failover"), 0, 30);
  lagging.lock_reached_replica = false;
  lagging.ms = 250;
  chaos::Campaign campaign{
      {Strategy::ttl, Strategy::pg_atomic}, {}, {chaos::fault_named("failover"), chaos::fault_named("pause")}, 1, 1};
  std::vector<Cell> cells = tabulate(campaign, {lagging, judged(Strategy::ttl, chaos::fault_named("pause"), 0, 0)});
  chaos::ChaosSetup setup;
  setup.seed = 77;
  setup.ttl = std::chrono::milliseconds(300);
  setup.wait = WaitMode::notify;
  write_json((tmp.path() / "chaos.json").string(), cells, campaign, setup);

  results::ChaosFile file = results::read_chaos_file(tmp.path() / "chaos.json");
  EXPECT_EQ(file.seed, 77u);
  EXPECT_EQ(file.ttl_ms, 300);
  EXPECT_EQ(file.trials_per_cell, 1);
  EXPECT_EQ(file.wait, "notify");
  ASSERT_EQ(file.cells.size(), cells.size());
  const results::ChaosFileCell& lag = file.cells[0];
  EXPECT_EQ(lag.strategy, "ttl");
  EXPECT_EQ(lag.fault, "failover");
  EXPECT_EQ(lag.replica, "lagging");
  EXPECT_EQ(lag.trials, 1);
  EXPECT_EQ(lag.anomalies, 1);
  EXPECT_EQ(lag.lost_updates, 1);
  EXPECT_EQ(lag.lost_amount, 30);
  EXPECT_DOUBLE_EQ(lag.rate, 1.0);
  EXPECT_DOUBLE_EQ(lag.median_trial_ms, 250);
  EXPECT_EQ(lag.kept_trials, std::vector<std::string>{"0"});
  EXPECT_EQ(file.cells[1].replica, "in-sync");
  auto pg_pause = std::find_if(file.cells.begin(), file.cells.end(), [](const results::ChaosFileCell& c) {
    return c.strategy == "pg-atomic" && c.fault == "pause";
  });
  ASSERT_NE(pg_pause, file.cells.end());
  EXPECT_EQ(pg_pause->not_applicable, "no lock held");
}

}  // namespace
}  // namespace rlock::checker
