// Every strategy goes out as `rlock worker` flags and comes back the same through the worker's own
// binding of them; the combinations that name no strategy are refused.
#include "lab/worker_flags.h"

#include <set>

#include <gtest/gtest.h>
#include <CLI/CLI.hpp>

#include "rlock/error.h"

namespace rlock::lab {
namespace {

const std::vector<RedisAddress> kRedlock{RedisAddress::parse("redis://127.0.0.1:6700"),
                                         RedisAddress::parse("redis://127.0.0.1:6701"),
                                         RedisAddress::parse("redis://127.0.0.1:6702")};

// `args` parsed as the worker's command line parses them. Throws CLI::ParseError for a combination
// the parser refuses.
StrategyFlags parsed(const std::vector<std::string>& args) {
  CLI::App app;
  StrategyFlags flags;
  add_strategy_flags(app, flags);
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
  app.parse(reversed);
  return flags;
}

TEST(WorkerFlags, EveryStrategyComesBackFromItsFlags) {
  for (Strategy s : all_strategies()) {
    std::vector<std::string> args = strategy_args(s, kRedlock);
    EXPECT_EQ(strategy_of(parsed(args)), s) << to_string(s);
  }
}

TEST(WorkerFlags, EachStrategyHasFlagsOfItsOwn) {
  std::set<std::vector<std::string>> seen;
  for (Strategy s : all_strategies()) EXPECT_TRUE(seen.insert(strategy_args(s, kRedlock)).second) << to_string(s);
  EXPECT_TRUE(strategy_args(Strategy::ttl, {}).empty());  // the plain lock is the worker's default
}

TEST(WorkerFlags, RedlocksFlagsCarryItsServers) {
  EXPECT_EQ(strategy_args(Strategy::redlock, kRedlock),
            (std::vector<std::string>{"--redlock",
                                      "redis://127.0.0.1:6700/0,redis://127.0.0.1:6701/0,redis://127.0.0.1:6702/0"}));
  EXPECT_EQ(parsed(strategy_args(Strategy::redlock, kRedlock)).redlock.size(), 3u);
}

TEST(WorkerFlags, TwoRedisLockStrategiesAreRefused) {
  EXPECT_THROW(strategy_of(parsed({"--watchdog", "--fenced"})), UsageError);
  EXPECT_THROW(strategy_of(parsed({"--watchdog", "--check-before-write"})), UsageError);
}

TEST(WorkerFlags, ClaimFenceWithoutRetryIsRefused) {
  EXPECT_THROW(strategy_of(parsed({"--fenced", "--claim-fence"})), UsageError);
}

TEST(WorkerFlags, TheParserRefusesWhatNeedsOrExcludesAnother) {
  EXPECT_THROW(parsed({"--retry"}), CLI::ParseError);
  EXPECT_THROW(parsed({"--claim-fence"}), CLI::ParseError);
  EXPECT_THROW(parsed({"--pg", "atomic", "--fenced"}), CLI::ParseError);
  EXPECT_THROW(parsed({"--pg", "sometimes"}), CLI::ParseError);
  EXPECT_THROW(parsed({"--redlock", "redis://a,redis://b,redis://c", "--watchdog"}), CLI::ParseError);
  EXPECT_THROW(parsed({"--redlock", "redis://a,redis://b,redis://c", "--pg", "row-lock"}), CLI::ParseError);
}

}  // namespace
}  // namespace rlock::lab
