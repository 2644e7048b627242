// AccountStore against the real PostgreSQL at DATABASE_URL. Each test owns one account (9201+); the
// lab itself uses account 1.
#include "bank/account_store.h"

#include <signal.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "rlock/error.h"
#include "rlock/lock_key.h"
#include "testing/database_env.h"

namespace rlock::bank {
namespace {

class AccountStoreTest : public ::testing::Test {
 protected:
  // Fails the test (never skips it) when DATABASE_URL is unset or unreachable.
  void SetUp() override { store_ = std::make_unique<AccountStore>(testing::database_url()); }
  AccountStore& store() { return *store_; }

 private:
  std::unique_ptr<AccountStore> store_;
};

TEST_F(AccountStoreTest, ResetPutsTheRowBackToTheInitialBalance) {
  store().reset(9201);
  AccountRow row = store().read(9201);
  EXPECT_EQ(row.balance, AccountStore::kInitialBalance);
  EXPECT_EQ(row.balance, 100);
  EXPECT_EQ(row.fence, 0);

  store().write_balance(9201, 7);
  ASSERT_EQ(store().fenced_write(9201, 8, Fence{5}), 1);
  store().reset(9201);  // the row exists now: reset updates it
  row = store().read(9201);
  EXPECT_EQ(row.balance, 100);
  EXPECT_EQ(row.fence, 0);
}

TEST_F(AccountStoreTest, WriteBalanceThenReadBalance) {
  store().reset(9202);
  store().write_balance(9202, 150);
  EXPECT_EQ(store().read_balance(9202), 150);
  EXPECT_EQ(store().read(9202).fence, 0);  // an unfenced write leaves the fence alone
}

TEST_F(AccountStoreTest, FencedWriteWithAnOlderFenceIsRejected) {
  store().reset(9203);
  EXPECT_EQ(store().fenced_write(9203, 150, Fence{2}), 1);
  EXPECT_EQ(store().fenced_write(9203, 130, Fence{1}), 0);
  AccountRow row = store().read(9203);
  EXPECT_EQ(row.balance, 150);
  EXPECT_EQ(row.fence, 2);
}

TEST_F(AccountStoreTest, FencedWriteWithAnEqualFenceIsRejected) {
  store().reset(9204);
  EXPECT_EQ(store().fenced_write(9204, 150, Fence{2}), 1);
  EXPECT_EQ(store().fenced_write(9204, 999, Fence{2}), 0);
  AccountRow row = store().read(9204);
  EXPECT_EQ(row.balance, 150);
  EXPECT_EQ(row.fence, 2);
}

TEST_F(AccountStoreTest, FencedWriteWithANewerFenceLands) {
  store().reset(9205);
  EXPECT_EQ(store().fenced_write(9205, 150, Fence{2}), 1);
  EXPECT_EQ(store().fenced_write(9205, 180, Fence{3}), 1);
  AccountRow row = store().read(9205);
  EXPECT_EQ(row.balance, 180);
  EXPECT_EQ(row.fence, 3);
}

TEST_F(AccountStoreTest, ReadingAMissingAccountThrowsError) {
  // No test or lab ever resets a negative account.
  std::string message = testing::error_message<Error>([&] { store().read(-9201); });
  EXPECT_NE(message.find("-9201"), std::string::npos) << message;
}

TEST(AccountStore, ConnectRefusedNamesTheServerButNotThePassword) {
  int port = testing::closed_port();
  std::string message = testing::error_message<Error>(
      [&] { AccountStore store("postgresql://u:hunter2@127.0.0.1:" + std::to_string(port) + "/bank"); });
  EXPECT_NE(message.find("127.0.0.1:" + std::to_string(port)), std::string::npos) << message;
  EXPECT_EQ(message.find("hunter2"), std::string::npos) << message;
}

// KNOWN BUG, disabled so the suite stays green: the constructor appends libpq's parse error verbatim
// (account_store.cpp, AccountStore::AccountStore), and for these URLs libpq quotes the password or
// the whole URL. Enable once fixed.
// A malformed URL is a usage error, and libpq's own message about it would quote the password.
TEST(AccountStore, MalformedUrlErrorsDoNotShowThePassword) {
  for (const char* url : {"postgresql://u:hunter2%zz@127.0.0.1:1/bank", "postgresql://u:hunter2@[::1/bank"}) {
    std::string message = testing::error_message<UsageError>([&] { AccountStore store(url); });
    EXPECT_EQ(message.find("hunter2"), std::string::npos) << message;
  }
}

TEST(AccountStore, DescribeConninfoIsHostPortAndDatabaseOnly) {
  EXPECT_EQ(describe_conninfo("postgresql://u:hunter2@db.local:5441/bank"), "db.local:5441/bank");
  EXPECT_EQ(describe_conninfo("host=db.local port=5441 dbname=bank password=hunter2"), "db.local:5441/bank");
  EXPECT_EQ(describe_conninfo("host=db.local"), "db.local:5432");
}

}  // namespace
}  // namespace rlock::bank

namespace rlock::bank {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// A frozen backend (SIGSTOPped: its socket stays open, so neither statement_timeout nor TCP notices)
// gives a clear error within the client's deadline, not a hang.
TEST(AccountStoreLimits, AFrozenBackendGivesAClearErrorWithinTheDeadline) {
  AccountStore store(testing::database_url(), PostgresLimits{.statement_timeout = 500ms, .deadline = 1000ms});
  store.reset(9230);
  pid_t backend = store.backend_pid();
  ASSERT_GT(backend, 0);
  ASSERT_EQ(kill(backend, SIGSTOP), 0) << "the test needs PostgreSQL running as this user";
  auto began = Clock::now();
  std::string message = testing::error_message<Error>([&] { store.read(9230); });
  double waited = std::chrono::duration<double>(Clock::now() - began).count();
  kill(backend, SIGCONT);
  EXPECT_NE(message.find("no answer to reading the balance within 1000 ms"), std::string::npos) << message;
  EXPECT_NE(message.find("frozen"), std::string::npos) << message;
  EXPECT_GE(waited, 0.9);
  EXPECT_LT(waited, 10.0) << "the deadline did not bound the wait";
}

// A statement that waits on a row lock held longer than statement_timeout is canceled by the server.
TEST(AccountStoreLimits, AStatementWaitingPastTheStatementTimeoutIsCanceled) {
  AccountStore holder(testing::database_url());
  holder.reset(9231);
  std::thread holding([&] {
    holder.locked_update(9231, AccountStore::TxLock::row, [](long long balance) {
      std::this_thread::sleep_for(3s);
      return balance;
    });
  });
  std::this_thread::sleep_for(300ms);  // the holder has the row
  AccountStore waiter(testing::database_url(), PostgresLimits{.statement_timeout = 500ms, .deadline = 10s});
  auto began = Clock::now();
  std::string message = testing::error_message<Error>(
      [&] { waiter.locked_update(9231, AccountStore::TxLock::row, [](long long balance) { return balance; }); });
  double waited = std::chrono::duration<double>(Clock::now() - began).count();
  holding.join();
  EXPECT_NE(message.find("statement timeout"), std::string::npos) << message;
  EXPECT_LT(waited, 2.5) << "the server did not cancel the waiting statement";
}

}  // namespace
}  // namespace rlock::bank
