// Each strategy against the real Redis (REDIS_URL) and PostgreSQL (DATABASE_URL): one increment
// adds its amount; a stale fence is rejected or retried as the strategy says; check-before-write
// starts again when its lock was lost; a watchdog keeps a lease across a pause longer than its TTL,
// which a plain TTL does not survive. Each test owns accounts 9401-9499.
#include "strategy/incrementer.h"

#include <chrono>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bank/account_store.h"
#include "lab/worker_plan.h"
#include "strategy/pg_account.h"
#include "testing/database_env.h"

namespace rlock::strategy {
namespace {

using namespace std::chrono_literals;
using lab::EventKind;
using lab::Strategy;

// A journal kept in memory: the events a strategy recorded, in order.
class Recorded final : public Journal {
 public:
  void record(EventKind kind, nlohmann::json fields) const override {
    events.push_back({kind, std::move(fields)});
    if (on_record) on_record(kind);
  }
  std::vector<EventKind> kinds() const {
    std::vector<EventKind> all;
    for (const auto& [kind, fields] : events) all.push_back(kind);
    return all;
  }
  const nlohmann::json* first(EventKind kind) const {
    for (const auto& [k, fields] : events) {
      if (k == kind) return &fields;
    }
    return nullptr;
  }

  mutable std::vector<std::pair<EventKind, nlohmann::json>> events;
  std::function<void(EventKind)> on_record;
};

// One account's row reset and its lock's keys deleted, and a strategy on them.
class Bench {
 public:
  Bench(Strategy strategy, long account, std::chrono::milliseconds ttl = 2000ms)
      : lock_(account), store_(testing::database_url()), pg_(testing::database_url(), account) {
    store_.reset(account);
    setting_.strategy = strategy;
    setting_.name = "T";
    setting_.key = LockKey::for_account(account);
    setting_.redis = testing::servers().redis;
    for (int db : {1, 2, 3}) {
      RedisAddress server = testing::servers().redis;
      server.db = db;
      setting_.redlock.push_back(server);
      RedisConnection(server).checked({"DEL", setting_.key.lock});
    }
    setting_.ttl = ttl;
    setting_.policy.retry = 10ms;
    account_ = account;
  }

  std::unique_ptr<Incrementer> make() { return make_incrementer(setting_, {pg_, journal, steps}); }
  long long balance() { return store_.read_balance(account_); }
  bank::AccountStore& store() { return store_; }
  testing::TestLock& lock() { return lock_; }

  Setting setting_;
  Recorded journal;
  StepHook steps;

 private:
  testing::TestLock lock_;
  bank::AccountStore store_;
  PgAccount pg_;
  long account_ = 0;
};

class EveryStrategy : public ::testing::TestWithParam<Strategy> {};

TEST_P(EveryStrategy, OneIncrementAddsItsAmount) {
  Bench bench(GetParam(), 9401 + static_cast<long>(GetParam()));
  std::unique_ptr<Incrementer> strategy = bench.make();
  strategy->increment(7);
  strategy->increment(5);
  EXPECT_EQ(bench.balance(), bank::AccountStore::kInitialBalance + 12);
  EXPECT_TRUE(strategy->write_state().added);
  EXPECT_FALSE(strategy->write_state().in_doubt);
}

INSTANTIATE_TEST_SUITE_P(Strategies, EveryStrategy, ::testing::ValuesIn(lab::all_strategies()),
                         [](const ::testing::TestParamInfo<Strategy>& each) {
                           std::string name(lab::to_string(each.param));
                           std::erase(name, '-');
                           return name;
                         });

// The row's fence is 1 already: the first acquisition's fence (1, the counter deleted) is stale.
TEST(Fenced, AStaleFenceIsRejectedAndNothingAdded) {
  Bench bench(Strategy::fenced, 9421);
  bench.store().fenced_write(9421, bank::AccountStore::kInitialBalance, Fence{1});
  std::unique_ptr<Incrementer> strategy = bench.make();
  EXPECT_THROW(strategy->increment(7), lab::WriteRejected);
  EXPECT_EQ(bench.balance(), bank::AccountStore::kInitialBalance);
  EXPECT_FALSE(strategy->write_state().added);
  ASSERT_NE(bench.journal.first(EventKind::fenced_write), nullptr);
  EXPECT_EQ((*bench.journal.first(EventKind::fenced_write))["rowcount"], 0);
}

TEST(Fenced, RetryStartsAgainWithANewerFence) {
  Bench bench(Strategy::fenced_retry, 9422);
  bench.store().fenced_write(9422, bank::AccountStore::kInitialBalance, Fence{1});
  bench.make()->increment(7);
  EXPECT_EQ(bench.balance(), bank::AccountStore::kInitialBalance + 7);
  std::vector<EventKind> want{EventKind::acquired, EventKind::read,           EventKind::fenced_write,
                              EventKind::released, EventKind::rejected_retry, EventKind::acquired,
                              EventKind::read,     EventKind::fenced_write,   EventKind::released};
  EXPECT_EQ(bench.journal.kinds(), want);
}

TEST(Fenced, ClaimIsRejectedAtTheReadThenRetried) {
  Bench bench(Strategy::fenced_claim, 9423);
  bench.store().fenced_write(9423, bank::AccountStore::kInitialBalance, Fence{1});
  bench.make()->increment(7);
  EXPECT_EQ(bench.balance(), bank::AccountStore::kInitialBalance + 7);
  std::vector<EventKind> want{EventKind::acquired,       EventKind::claim_rejected, EventKind::released,
                              EventKind::rejected_retry, EventKind::acquired,       EventKind::read,
                              EventKind::fenced_write,   EventKind::released};
  EXPECT_EQ(bench.journal.kinds(), want);
}

// The lock's key deleted as soon as the first read is recorded: the check finds it lost, and the
// increment starts again from the acquisition, releasing nothing.
TEST(CheckBeforeWrite, StartsAgainWhenTheLockWasLost) {
  Bench bench(Strategy::check_before_write, 9424);
  int reads = 0;
  bench.journal.on_record = [&](EventKind kind) {
    if (kind == EventKind::read && ++reads == 1) bench.lock().clear();
  };
  bench.make()->increment(7);
  EXPECT_EQ(bench.balance(), bank::AccountStore::kInitialBalance + 7);
  std::vector<EventKind> want{EventKind::acquired, EventKind::read,    EventKind::checked, EventKind::acquired,
                              EventKind::read,     EventKind::checked, EventKind::wrote,   EventKind::released};
  EXPECT_EQ(bench.journal.kinds(), want);
  EXPECT_EQ((*bench.journal.first(EventKind::checked))["held"], false);
}

// A pause of 2.5 TTLs after the read: the watchdog's lease is still the holder's at the release;
// the plain TTL's expired under it.
TEST(Watchdog, KeepsTheLeaseAcrossAPauseLongerThanTheTtl) {
  for (Strategy strategy : {Strategy::watchdog, Strategy::ttl}) {
    Bench bench(strategy, 9425, 200ms);
    bench.setting_.work_seconds = 0.5;
    bench.make()->increment(7);
    EXPECT_EQ(bench.balance(), bank::AccountStore::kInitialBalance + 7);
    const nlohmann::json* released = bench.journal.first(EventKind::released);
    ASSERT_NE(released, nullptr);
    EXPECT_EQ((*released)["result"], strategy == Strategy::watchdog ? 1 : 0) << lab::to_string(strategy);
    EXPECT_EQ(bench.journal.first(EventKind::watchdog_extended) != nullptr, strategy == Strategy::watchdog);
  }
}

// Held by someone else for good, with a deadline: the increment gives up saying so, adding nothing.
TEST(Acquisition, GivesUpAtThePolicysDeadline) {
  Bench bench(Strategy::ttl, 9426);
  bench.lock().redis.checked({"SET", bench.setting_.key.lock, "someone-else", "PX", "5000"});
  bench.setting_.policy.deadline = 100ms;
  std::string message = testing::error_message<Error>([&] { bench.make()->increment(7); });
  EXPECT_NE(message.find("could not acquire"), std::string::npos) << message;
  EXPECT_EQ(bench.balance(), bank::AccountStore::kInitialBalance);
}

}  // namespace
}  // namespace rlock::strategy
