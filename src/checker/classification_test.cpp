// classify() on hand-made results: each thing a trial can show, the harm it comes to, and what a
// client's error, a refused stale holder and a trial with no increment done make of it.
#include "checker/classification.h"

#include <gtest/gtest.h>

namespace rlock::checker {
namespace {

// A judged trial of two increments, both done, every checker valid.
TrialResult clean() {
  TrialResult r;
  for (CheckResult* check : {&r.lost, &r.overlaps, &r.fences, &r.balance}) check->validity = Validity::valid;
  r.ok_ops = 2;
  r.judged = true;
  return r;
}

TEST(Classify, ACleanTrialShowsNothing) {
  Classification c = classify(clean());
  EXPECT_TRUE(c.judged);
  EXPECT_EQ(c.harm(), Harm::none);
  EXPECT_FALSE(c.failed_safely());
  for (Loss loss : all_losses()) EXPECT_FALSE(c.shows(loss)) << to_string(loss);
}

TEST(Classify, EachWayOfLosingMoneyIsMoney) {
  TrialResult lost = clean(), created = clean(), too_much = clean(), overlap = clean(), fence = clean(),
              unwritten = clean(), undecided = clean();
  lost.lost = {Validity::invalid, "", 50, 1};
  created.balance = {Validity::invalid, "", 30, 1};
  too_much.lost = {Validity::invalid, "", -30, 0};  // a database holding more than every increment once
  overlap.overlaps.validity = Validity::invalid;
  fence.fences.validity = Validity::invalid;
  unwritten.unwritten_ops = 1;
  undecided.lost.validity = Validity::unknown;  // a checker that could not say is never valid
  for (const TrialResult* r : {&lost, &created, &too_much, &overlap, &fence, &unwritten, &undecided}) {
    EXPECT_EQ(classify(*r).harm(), Harm::money);
    EXPECT_TRUE(anomaly(*r));
  }
  EXPECT_TRUE(classify(lost).shows(Loss::lost_update));
  EXPECT_FALSE(classify(too_much).shows(Loss::lost_update));
  EXPECT_TRUE(classify(too_much).shows(Loss::created));
  EXPECT_TRUE(classify(unwritten).shows(Loss::unwritten));
}

TEST(Classify, AStaleHolderRefusedWhileAnotherSucceededIsTheFenceWorking) {
  TrialResult r = clean();
  r.ok_ops = 1;
  r.failed_ops = 1;
  Classification c = classify(r);
  EXPECT_EQ(c.harm(), Harm::none);
  EXPECT_TRUE(c.failed_safely());
  EXPECT_TRUE(c.shows(Loss::failed));
}

TEST(Classify, AStuckIncrementOrNoneSucceedingIsLiveness) {
  TrialResult stuck = clean(), refused = clean(), unknown = clean();
  stuck.stuck_ops = 1;
  refused.ok_ops = 0;
  refused.failed_ops = 2;
  unknown.ok_ops = 0;
  unknown.unknown_ops = 1;
  unknown.failed_ops = 1;
  for (const TrialResult* r : {&stuck, &refused, &unknown}) {
    EXPECT_EQ(classify(*r).harm(), Harm::liveness);
    EXPECT_FALSE(classify(*r).failed_safely());
    EXPECT_FALSE(anomaly(*r));
  }
  EXPECT_TRUE(classify(stuck).shows(Loss::stuck));
}

TEST(Classify, AClientsErrorHidesNoMoneyLostBeforeItAndSaysNothingOfProgress) {
  TrialResult r = clean();
  r.client_error = "A: exited before it said done";
  r.lost = {Validity::invalid, "", 65, 1};
  r.ok_ops = 0;
  r.unknown_ops = 2;
  Classification c = classify(r);
  EXPECT_TRUE(c.judged);
  EXPECT_EQ(c.harm(), Harm::money);
  EXPECT_TRUE(c.shows(Loss::lost_update));
  EXPECT_TRUE(c.shows(Loss::client_error));
  EXPECT_FALSE(c.no_progress) << "the harness ended the trial at the error";
}

TEST(Classify, ATrialNotJudgedShowsOnlyItsClientsError) {
  TrialResult r = clean();
  r.judged = false;
  r.client_error = "B: not a JSON line";
  r.lost.validity = Validity::unknown;
  Classification c = classify(r);
  EXPECT_FALSE(c.judged);
  EXPECT_EQ(c.harm(), Harm::none);
  EXPECT_FALSE(anomaly(r));
  EXPECT_TRUE(c.shows(Loss::client_error));
  EXPECT_FALSE(c.shows(Loss::lost_update));
}

TEST(Losses, EachNameReadsBack) {
  for (Loss loss : all_losses()) EXPECT_EQ(loss_from(to_string(loss)), loss);
  EXPECT_EQ(loss_from("lost"), std::nullopt);
}

}  // namespace
}  // namespace rlock::checker
