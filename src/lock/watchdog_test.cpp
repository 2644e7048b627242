// Watchdog against the real Redis at REDIS_URL, with a 300 ms TTL (an extension every 100 ms).
// Each test owns the keys of one account (9101+), deleted before and after it.
#include "rlock/watchdog.h"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "rlock/error.h"
#include "rlock/lock_key.h"
#include "rlock/redis_connection.h"
#include "rlock/redis_lock.h"
#include "testing/test_env.h"

namespace rlock {
namespace {

using namespace std::chrono_literals;
using testing::TestLock;

constexpr std::chrono::milliseconds kTtl = 300ms;
// How long to wait for something that should take a few periods: generous, only a stuck test waits it.
constexpr std::chrono::seconds kPatience = 10s;

// The watchdog's reports, collected from its thread.
class Reports {
 public:
  Watchdog::Callback callback() {
    return [this](const WatchdogReport& report) {
      {
        std::lock_guard lock(mutex_);
        reports_.push_back(report);
      }
      changed_.notify_all();
    };
  }
  // Waits until `done(reports)` holds; false when it did not within kPatience.
  template <typename Done>
  bool wait_until(Done done) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, kPatience, [&] { return done(reports_); });
  }
  std::vector<WatchdogReport> all() {
    std::lock_guard lock(mutex_);
    return reports_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<WatchdogReport> reports_;
};

bool has_failure(const std::vector<WatchdogReport>& reports) {
  for (const WatchdogReport& report : reports) {
    if (!report.result.extended) return true;
  }
  return false;
}

TEST(Watchdog, KeepsTheLockAliveLongPastItsTtl) {
  TestLock t(9101);
  auto lease = t.lock.acquire(kTtl);
  ASSERT_TRUE(lease);
  Reports reports;
  Watchdog watchdog(testing::servers().redis, t.key, lease->token, kTtl, reports.callback());

  std::this_thread::sleep_for(1s);  // more than three TTLs
  EXPECT_EQ(t.get(t.key.lock), lease->token.hex);
  watchdog.stop();
  EXPECT_EQ(watchdog.failure(), std::nullopt) << "the callback never threw";

  std::vector<WatchdogReport> all = reports.all();
  EXPECT_GE(all.size(), 2u);
  for (const WatchdogReport& report : all) {
    EXPECT_TRUE(report.result.extended);
    EXPECT_GT(report.result.pttl_ms, 0);
    EXPECT_LE(report.result.pttl_ms, kTtl.count());
    EXPECT_FALSE(report.error) << *report.error;
  }
}

TEST(Watchdog, ReportsOneFailureAndStopsWhenTheKeyIsDeleted) {
  TestLock t(9102);
  auto lease = t.lock.acquire(kTtl);
  ASSERT_TRUE(lease);
  Reports reports;
  Watchdog watchdog(testing::servers().redis, t.key, lease->token, kTtl, reports.callback());
  ASSERT_TRUE(reports.wait_until([](const auto& all) { return !all.empty(); })) << "no extension at all";

  t.redis.checked({"DEL", t.key.lock});
  ASSERT_TRUE(reports.wait_until(has_failure)) << "the watchdog never noticed the lost lock";
  std::size_t count = reports.all().size();
  std::this_thread::sleep_for(5 * kTtl / 3);  // five periods: a running watchdog would report again

  std::vector<WatchdogReport> all = reports.all();
  ASSERT_EQ(all.size(), count) << "the watchdog reported after its failure";
  const WatchdogReport& last = all.back();
  EXPECT_FALSE(last.result.extended);
  EXPECT_EQ(last.result.pttl_ms, -2);
  EXPECT_FALSE(last.error) << *last.error;
  for (std::size_t i = 0; i + 1 < all.size(); ++i) EXPECT_TRUE(all[i].result.extended) << "report " << i;

  watchdog.stop();  // after the thread ended on its own
  watchdog.stop();
}

TEST(Watchdog, ReportsOneFailureAndStopsWhenAnotherTokenHoldsTheKey) {
  TestLock t(9103);
  auto lease = t.lock.acquire(kTtl);
  ASSERT_TRUE(lease);
  Reports reports;
  Watchdog watchdog(testing::servers().redis, t.key, lease->token, kTtl, reports.callback());

  const std::string other = make_token().hex;
  t.redis.checked({"SET", t.key.lock, other, "PX", "60000"});
  ASSERT_TRUE(reports.wait_until(has_failure)) << "the watchdog never noticed the lost lock";
  std::size_t count = reports.all().size();
  std::this_thread::sleep_for(5 * kTtl / 3);

  std::vector<WatchdogReport> all = reports.all();
  ASSERT_EQ(all.size(), count) << "the watchdog reported after its failure";
  EXPECT_FALSE(all.back().result.extended);
  EXPECT_GT(all.back().result.pttl_ms, 0);  // the other holder's TTL
  EXPECT_FALSE(all.back().error);
  // The other holder's lock is untouched: still its token, still its own long TTL.
  EXPECT_EQ(t.get(t.key.lock), other);
  EXPECT_GT(t.lock.pttl(), kTtl.count());
}

TEST(Watchdog, StopIsIdempotentAndNothingIsReportedAfterIt) {
  TestLock t(9104);
  auto lease = t.lock.acquire(kTtl);
  ASSERT_TRUE(lease);
  Reports reports;
  Watchdog watchdog(testing::servers().redis, t.key, lease->token, kTtl, reports.callback());
  watchdog.stop();
  watchdog.stop();
  std::size_t count = reports.all().size();
  std::this_thread::sleep_for(5 * kTtl / 3);
  EXPECT_EQ(reports.all().size(), count);
}

TEST(Watchdog, DestructorStopsAndJoins) {
  TestLock t(9105);
  auto lease = t.lock.acquire(kTtl);
  ASSERT_TRUE(lease);
  Reports reports;  // outlives the watchdog, as the callback requires
  {
    Watchdog watchdog(testing::servers().redis, t.key, lease->token, kTtl, reports.callback());
    ASSERT_TRUE(reports.wait_until([](const auto& all) { return !all.empty(); })) << "no extension at all";
  }
  std::size_t count = reports.all().size();
  std::this_thread::sleep_for(5 * kTtl / 3);
  EXPECT_EQ(reports.all().size(), count) << "the watchdog reported after its destructor";
}

// Regression: an exception from the callback escaped the watchdog's thread and terminated the
// process. Now the watchdog stops, and failure() says what was thrown.
TEST(Watchdog, ACallbackThatThrowsStopsTheWatchdogAndIsItsFailure) {
  struct Case {
    long account;
    std::function<void()> raise;
    std::string failure;
  };
  const Case cases[] = {
      {9107, [] { throw std::runtime_error("the caller's bookkeeping failed"); },
       "the watchdog's callback threw: the caller's bookkeeping failed"},
      {9108, [] { throw 42; }, "the watchdog's callback threw: an exception that is not a std::exception"}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.failure);
    TestLock t(c.account);
    auto lease = t.lock.acquire(kTtl);
    ASSERT_TRUE(lease);
    Reports reports;
    Watchdog watchdog(testing::servers().redis, t.key, lease->token, kTtl,
                      [&, collect = reports.callback()](const WatchdogReport& report) {
                        collect(report);
                        c.raise();
                      });
    ASSERT_TRUE(reports.wait_until([](const auto& all) { return !all.empty(); })) << "no extension at all";
    std::this_thread::sleep_for(5 * kTtl / 3);  // five periods: a running watchdog would report again
    EXPECT_EQ(reports.all().size(), 1u) << "the watchdog went on after its callback threw";
    EXPECT_EQ(watchdog.failure(), c.failure);
    EXPECT_EQ(t.lock.pttl(), -2) << "no longer extended, the lock expired with its TTL";
  }
}

TEST(Watchdog, ConstructorThrowsErrorWhenRedisIsUnreachable) {
  RedisAddress nowhere;
  nowhere.port = testing::closed_port();
  Reports reports;
  EXPECT_THROW(Watchdog(nowhere, LockKey::for_account(9106), make_token(), kTtl, reports.callback()), Error);
  EXPECT_TRUE(reports.all().empty());
}

}  // namespace
}  // namespace rlock
