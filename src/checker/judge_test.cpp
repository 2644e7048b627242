// judge() on hand-made trial inputs: each outcome it can give, and what it carries through.
#include "checker/judge.h"

#include <gtest/gtest.h>

#include "bank/account_store.h"
#include "checker/classification.h"

namespace rlock::checker {
namespace {

constexpr long long kStart = bank::AccountStore::kInitialBalance;

Operation op(const std::string& worker, long long amount, Outcome outcome, double read_at, double wrote_at,
             std::optional<long long> fence = std::nullopt) {
  return Operation{worker, amount, outcome, {Section{read_at, wrote_at, outcome == Outcome::ok, fence}}};
}

// A trial of fenced-retry under pause: A adds 30, then B adds 50, one after the other, both ok.
TrialInput clean_trial() {
  TrialInput input(chaos::TrialSpec{lab::Strategy::fenced_retry, chaos::fault_named("pause"), 7, std::nullopt});
  input.history = {op("A", 30, Outcome::ok, 0.0, 0.1, 1), op("B", 50, Outcome::ok, 0.2, 0.3, 2)};
  input.stuck = {false, false};
  input.final_balance = kStart + 80;
  input.ms = 412.5;
  return input;
}

TEST(Judge, ACleanTrialIsValidEverywhere) {
  TrialResult r = judge(clean_trial());
  EXPECT_EQ(r.lost.validity, Validity::valid);
  EXPECT_EQ(r.overlaps.validity, Validity::valid);
  EXPECT_EQ(r.fences.validity, Validity::valid);
  EXPECT_FALSE(anomaly(r));
  EXPECT_FALSE(r.not_run);
  EXPECT_EQ(r.failed_ops + r.unknown_ops + r.stuck_ops, 0);
  EXPECT_EQ(r.spec.number, 7);
  EXPECT_DOUBLE_EQ(r.ms, 412.5);
}

TEST(Judge, MissingMoneyIsALostUpdate) {
  TrialInput input = clean_trial();
  input.final_balance = kStart + 30;
  TrialResult r = judge(input);
  EXPECT_EQ(r.lost.validity, Validity::invalid);
  EXPECT_EQ(r.lost.amount, 50);
  EXPECT_TRUE(anomaly(r));
}

TEST(Judge, MoreMoneyThanEveryIncrementOnceIsInvalidToo) {
  TrialInput input = clean_trial();
  input.final_balance = kStart + 110;
  TrialResult r = judge(input);
  EXPECT_EQ(r.lost.validity, Validity::invalid);
  EXPECT_EQ(r.lost.amount, -30);
  EXPECT_TRUE(anomaly(r));
}

TEST(Judge, TwoAcceptedOverlappingSectionsAreAnOverlap) {
  TrialInput input = clean_trial();
  input.history[1].sections[0].read_at = 0.05;  // B read before A wrote
  TrialResult r = judge(input);
  EXPECT_EQ(r.lost.validity, Validity::valid);
  EXPECT_EQ(r.overlaps.validity, Validity::invalid);
  EXPECT_EQ(r.overlaps.count, 1);
  EXPECT_TRUE(anomaly(r));
}

TEST(Judge, ASmallerTokenAcceptedLaterIsAFenceViolation) {
  TrialInput input = clean_trial();
  input.history[1].sections[0].fence = 1;  // B's write, after A's token 1, accepted with token 1
  TrialResult r = judge(input);
  EXPECT_EQ(r.fences.validity, Validity::invalid);
  EXPECT_EQ(r.fences.count, 1);
  EXPECT_TRUE(anomaly(r));
}

TEST(Judge, FailedUnknownAndStuckIncrementsAreCountedApart) {
  TrialInput input(chaos::TrialSpec{lab::Strategy::ttl, chaos::fault_named("kill"), 0, std::nullopt});
  input.history = {op("A", 30, Outcome::fail, 0.0, 0.1), op("B", 50, Outcome::info, 0.2, 0.3),
                   op("C", 20, Outcome::info, 0.4, 0.5), op("D", 10, Outcome::ok, 0.6, 0.7)};
  input.stuck = {false, false, true, false};  // C ran out of time: stuck, not unknown
  input.final_balance = kStart + 10 + 50;     // B's unknown increment applied
  TrialResult r = judge(input);
  EXPECT_EQ(r.failed_ops, 1);
  EXPECT_EQ(r.failed_amount, 30);
  EXPECT_EQ(r.unknown_ops, 1);
  EXPECT_EQ(r.stuck_ops, 1);
  EXPECT_EQ(r.lost.validity, Validity::valid);  // within [110, 180]
  EXPECT_FALSE(anomaly(r));
}

TEST(Judge, AnUnreadBalanceIsUnknownNeverValid) {
  TrialInput input = clean_trial();
  input.final_balance.reset();
  input.balance_error = "PostgreSQL went away";
  TrialResult r = judge(input);
  EXPECT_EQ(r.lost.validity, Validity::unknown);
  EXPECT_NE(r.lost.detail.find("PostgreSQL went away"), std::string::npos);
  EXPECT_TRUE(anomaly(r));  // not valid: the checker could not say
}

TEST(Judge, ATrialNotRunIsNotJudged) {
  TrialInput input = clean_trial();
  input.not_run = true;
  TrialResult r = judge(input);
  EXPECT_TRUE(r.not_run);
  EXPECT_EQ(r.lost.validity, Validity::unknown);
  EXPECT_EQ(r.failed_ops + r.unknown_ops + r.stuck_ops, 0);
  EXPECT_FALSE(anomaly(r));
}

TEST(Judge, ATrialThatCouldNotRunIsNotRunAndSaysWhy) {
  TrialInput input = clean_trial();
  input.error = "redis-server did not start";
  TrialResult r = judge(input);
  EXPECT_TRUE(r.not_run);
  EXPECT_EQ(r.error, "redis-server did not start");
  EXPECT_FALSE(anomaly(r));
}

TEST(Judge, AClientErrorAfterAServedWriteIsJudgedAllTheSame) {
  TrialInput input(chaos::TrialSpec{lab::Strategy::ttl, chaos::fault_named("pause"), 2,
                                    protocol::ClientSpec{"py", "python3 client.py"}});
  input.history = {op("A", 30, Outcome::ok, 0.0, 0.5), op("B", 50, Outcome::ok, 0.2, 0.3)};
  input.served = ServedTally{.stale_writes = 1, .lost_money = 50};
  input.client_error = "A: exited before it said done";
  TrialResult r = judge(input);
  EXPECT_FALSE(r.not_run);
  EXPECT_TRUE(r.judged);
  EXPECT_EQ(r.client_error, "A: exited before it said done");
  EXPECT_EQ(r.lost.validity, Validity::invalid) << "the stale write was applied, whatever the client did next";
  EXPECT_EQ(r.lost.amount, 50);
  EXPECT_EQ(r.overlaps.validity, Validity::invalid);
  EXPECT_EQ(r.ok_ops, 2);
  EXPECT_TRUE(anomaly(r));
}

TEST(Judge, AClientErrorBeforeAnyWriteJudgesNothingButCountsTheIncrements) {
  TrialInput input(chaos::TrialSpec{lab::Strategy::ttl, chaos::fault_named("pause"), 2,
                                    protocol::ClientSpec{"py", "python3 client.py"}});
  input.history = {Operation{"A", 30, Outcome::info, {}}, Operation{"B", 50, Outcome::info, {}}};
  input.served = ServedTally{};
  input.client_error = "B: not a JSON line";
  TrialResult r = judge(input);
  EXPECT_FALSE(r.not_run);
  EXPECT_FALSE(r.judged);
  EXPECT_EQ(r.lost.validity, Validity::unknown);
  EXPECT_EQ(r.overlaps.validity, Validity::unknown);
  EXPECT_EQ(r.unknown_ops, 2);
  EXPECT_FALSE(anomaly(r));
}

TEST(Judge, AServedAccountIsJudgedByItsTallyNotItsBalance) {
  TrialInput input(chaos::TrialSpec{lab::Strategy::ttl, chaos::fault_named("pause"), 3,
                                    protocol::ClientSpec{"py", "python3 client.py"}});
  input.history = {op("A", 30, Outcome::ok, 0.0, 0.1), op("B", 50, Outcome::ok, 0.2, 0.3)};
  input.served = ServedTally{.stale_writes = 0, .lost_money = 0};
  TrialResult clean = judge(input);
  EXPECT_EQ(clean.lost.validity, Validity::valid);
  EXPECT_FALSE(anomaly(clean));

  input.served = ServedTally{.stale_writes = 2, .lost_money = 80};
  TrialResult lossy = judge(input);
  EXPECT_EQ(lossy.lost.validity, Validity::invalid);
  EXPECT_EQ(lossy.lost.amount, 80);
  EXPECT_EQ(lossy.lost.count, 2);
  EXPECT_TRUE(anomaly(lossy));
}

// A client trial where A adds 30 and B adds 50, as the harness served them.
TrialInput client_trial(ServedTally served) {
  TrialInput input(chaos::TrialSpec{lab::Strategy::ttl, chaos::fault_named("none"), 4,
                                    protocol::ClientSpec{"py", "python3 client.py"}});
  input.history = {op("A", 30, Outcome::ok, 0.0, 0.1), op("B", 50, Outcome::ok, 0.2, 0.3)};
  input.stuck = {false, false};
  input.served = served;
  return input;
}

TEST(Judge, AServedBalanceOfEachAppliedIncrementOnceIsValid) {
  TrialResult r = judge(client_trial(ServedTally{.balance = kStart + 80, .expected_balance = kStart + 80}));
  EXPECT_EQ(r.balance.validity, Validity::valid);
  EXPECT_FALSE(anomaly(r));
}

TEST(Judge, AnIncrementWrittenTwiceCreatesMoneyAnAnomalyWithItsAmount) {
  TrialResult r =
      judge(client_trial(ServedTally{.balance = kStart + 110, .expected_balance = kStart + 80, .repeated_writes = 1}));
  EXPECT_EQ(r.balance.validity, Validity::invalid);
  EXPECT_EQ(r.balance.amount, 30);
  EXPECT_EQ(r.balance.count, 1);
  EXPECT_EQ(r.lost.validity, Validity::valid);
  EXPECT_TRUE(anomaly(r));
}

TEST(Judge, MoneyLostToStaleWritesIsNotCreatedMoneyToo) {
  TrialResult r = judge(client_trial(
      ServedTally{.stale_writes = 1, .lost_money = 50, .balance = kStart + 30, .expected_balance = kStart + 80}));
  EXPECT_EQ(r.lost.validity, Validity::invalid);
  EXPECT_EQ(r.balance.validity, Validity::valid);
}

TEST(Judge, DoneWithNoWriteIsCountedAndIsAnAnomaly) {
  TrialResult r = judge(client_trial(ServedTally{.balance = kStart, .expected_balance = kStart, .unwritten = 2}));
  EXPECT_EQ(r.unwritten_ops, 2);
  EXPECT_EQ(r.balance.validity, Validity::valid);
  EXPECT_EQ(r.failed_ops, 0);
  EXPECT_TRUE(anomaly(r)) << "an increment reported done that is not in the account is money the service lost";
}

TEST(Judge, AStoredClientTrialWithoutItsBalanceIsNotCheckedForIt) {
  TrialResult r = judge(client_trial(ServedTally{.stale_writes = 0, .lost_money = 0}));
  EXPECT_EQ(r.balance.validity, Validity::unknown);
  EXPECT_FALSE(anomaly(r));
}

TEST(Judge, WhatTheTrialMeasuredIsCarriedThrough) {
  TrialInput input = clean_trial();
  input.struck = true;
  input.lock_reached_replica = false;
  TrialResult r = judge(input);
  EXPECT_TRUE(r.struck);
  EXPECT_EQ(r.lock_reached_replica, std::optional<bool>(false));
}

}  // namespace
}  // namespace rlock::checker
