#include "protocol/served_account.h"

#include <gtest/gtest.h>

namespace rlock::protocol {
namespace {

TEST(ServedAccount, SerialIncrementsLoseNothing) {
  ServedAccount account(100);
  account.read(1, 30, std::nullopt, false);
  EXPECT_TRUE(account.write(1, 130, std::nullopt).applied);
  account.read(2, 50, std::nullopt, false);
  EXPECT_TRUE(account.write(2, 180, std::nullopt).applied);
  EXPECT_EQ(account.balance(), 180);
  EXPECT_EQ(account.stale_writes(), 0);
  EXPECT_EQ(account.lost_money(), 0);
}

TEST(ServedAccount, AWriteFromAnOldReadLosesWhatWasAddedSince) {
  ServedAccount account(100);
  account.read(1, 30, std::nullopt, false);  // A reads 100, then pauses
  account.read(2, 50, std::nullopt, false);  // B reads 100
  EXPECT_TRUE(account.write(2, 150, std::nullopt).applied);
  EXPECT_TRUE(account.write(1, 130, std::nullopt).applied);  // lab 1: A overwrites B's 50
  EXPECT_EQ(account.balance(), 130);
  EXPECT_EQ(account.stale_writes(), 1);
  EXPECT_EQ(account.lost_money(), 50);
}

TEST(ServedAccount, AWriteThatIsNotReadPlusAmountIsAProtocolError) {
  ServedAccount account(100);
  account.read(1, 30, std::nullopt, false);
  ServedAccount::WriteResult wrong = account.write(1, 131, std::nullopt);
  EXPECT_FALSE(wrong.applied);
  ASSERT_TRUE(wrong.protocol_error);
  EXPECT_NE(wrong.protocol_error->find("not its read 100 plus its amount 30"), std::string::npos);
  EXPECT_TRUE(account.write(7, 1, std::nullopt).protocol_error);  // never read
  EXPECT_EQ(account.balance(), 100);
}

TEST(ServedAccount, FenceBelowTokenRejectsTheOlderWriteAsLab3Does) {
  ServedAccount account(100);
  account.read(1, 30, 1, false);
  account.read(2, 50, 2, false);
  EXPECT_TRUE(account.write(2, 150, 2).applied);
  EXPECT_FALSE(account.write(1, 130, 1).applied);
  EXPECT_EQ(account.fence(), 2);
  EXPECT_EQ(account.balance(), 150);
}

TEST(ServedAccount, AStaleWriteBetweenANewerReadAndWritePassesFenceBelowToken) {
  // The gap in the article's fencing: the stale holder's write lands between the newer holder's
  // read and its write, with a token larger than the row's fence.
  ServedAccount account(100);
  account.read(1, 30, 1, false);                  // A, token 1, reads 100 and pauses
  account.read(2, 50, 2, false);                  // B, token 2, reads 100
  EXPECT_TRUE(account.write(1, 130, 1).applied);  // A's stale write: fence 0 < 1
  EXPECT_TRUE(account.write(2, 150, 2).applied);  // B's write: fence 1 < 2, A's 30 lost
  EXPECT_EQ(account.lost_money(), 30);
}

TEST(ServedAccount, AClaimedFenceShutsOutTheStaleWrite) {
  ServedAccount account(100);
  EXPECT_TRUE(account.read(1, 30, 1, true).claimed.value());
  EXPECT_TRUE(account.read(2, 50, 2, true).claimed.value());
  EXPECT_FALSE(account.write(1, 130, 1).applied);  // the fence is 2 now
  EXPECT_TRUE(account.write(2, 150, 2).applied);
  EXPECT_FALSE(account.read(3, 10, 1, true).claimed.value());  // an old token claims nothing
  EXPECT_EQ(account.lost_money(), 0);
}

TEST(ServedAccount, TwoAppliedWritesOfOneIncrementAddItsAmountTwice) {
  ServedAccount account(100);
  account.read(1, 30, std::nullopt, false);
  EXPECT_TRUE(account.write(1, 130, std::nullopt).applied);
  account.read(1, 30, std::nullopt, false);
  EXPECT_TRUE(account.write(1, 160, std::nullopt).applied);  // each write right for its read
  account.done(1, false);
  EXPECT_EQ(account.balance(), 160);
  EXPECT_EQ(account.expected_balance(), 130);
  EXPECT_EQ(account.repeated_writes(), 1);
  EXPECT_EQ(account.stale_writes(), 0);
}

TEST(ServedAccount, DoneWithNoAppliedWriteAndNoErrorIsUnwritten) {
  ServedAccount account(100);
  account.read(1, 30, std::nullopt, false);
  account.done(1, false);  // no write at all
  account.read(2, 50, 1, true);
  account.read(3, 20, 2, true);
  EXPECT_FALSE(account.write(2, 150, 1).applied);
  account.done(2, false);  // its write refused, and it says nothing of it
  account.done(3, true);   // gave up, and said so: failed, not unwritten
  EXPECT_EQ(account.unwritten(), 2);
  EXPECT_EQ(account.balance(), 100);
  EXPECT_EQ(account.expected_balance(), 100);
}

TEST(ServedAccount, TheExpectedBalanceCountsEachIncrementWithAnAppliedWriteOnce) {
  ServedAccount account(100);
  account.read(1, 30, std::nullopt, false);
  account.write(1, 130, std::nullopt);
  account.done(1, false);
  account.read(2, 50, std::nullopt, false);  // read, never written: not expected
  EXPECT_EQ(account.expected_balance(), 130);
  EXPECT_EQ(account.unwritten(), 0);
  EXPECT_EQ(account.repeated_writes(), 0);
}

}  // namespace
}  // namespace rlock::protocol
