#include "lab/strategy_list.h"

#include <gtest/gtest.h>

#include "rlock/error.h"

namespace rlock::lab {
namespace {

const std::vector<Strategy> kDefault{Strategy::ttl, Strategy::fenced_claim};

// The UsageError's text of parse_strategy_list(names), or "" when it accepts them.
std::string refusal(const std::vector<std::string>& names) {
  try {
    parse_strategy_list(names, kDefault);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(ParseStrategyList, NoListIsTheCommandsDefault) { EXPECT_EQ(parse_strategy_list({}, kDefault), kDefault); }

TEST(ParseStrategyList, NoneOrAnEmptyListAloneIsNoStrategy) {
  EXPECT_TRUE(parse_strategy_list({"none"}, kDefault).empty());
  EXPECT_TRUE(parse_strategy_list({""}, kDefault).empty());
}

TEST(ParseStrategyList, NamesAreKeptInTheirOrder) {
  EXPECT_EQ(parse_strategy_list({"pg-row-lock", "ttl", "redlock"}, kDefault),
            (std::vector<Strategy>{Strategy::pg_row_lock, Strategy::ttl, Strategy::redlock}));
}

TEST(ParseStrategyList, EveryStrategyIsAcceptedByItsName) {
  for (Strategy s : all_strategies()) {
    EXPECT_EQ(parse_strategy_list({std::string(to_string(s))}, kDefault), std::vector<Strategy>{s}) << to_string(s);
  }
}

TEST(ParseStrategyList, AnUnknownNameIsRefusedWithTheKnownOnes) {
  EXPECT_EQ(refusal({"ttl", "redlok"}),
            "--strategies: unknown strategy 'redlok' (known: ttl,watchdog,check-before-write,redlock,fenced,"
            "fenced-retry,fenced-claim,pg-atomic,pg-row-lock,pg-advisory)");
  EXPECT_NE(refusal({"TTL"}), "");  // names are case-sensitive
}

TEST(ParseStrategyList, ACommandThatRunsFewerNamesItsFlagAndListsThoseAlone) {
  const std::vector<Strategy> runs{Strategy::ttl, Strategy::fenced};
  auto refusal_of = [&](const std::vector<std::string>& names) -> std::string {
    try {
      parse_strategy_list(names, {}, "--strategy", runs);
    } catch (const UsageError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(refusal_of({"nope"}), "--strategy: unknown strategy 'nope' (known: ttl,fenced)");
  EXPECT_EQ(refusal_of({"ttl", "redlock"}), "--strategy: 'redlock' is not one of ttl,fenced");
  EXPECT_EQ(refusal_of({"fenced", "fenced"}), "--strategy: 'fenced' is named twice");
  EXPECT_EQ(parse_strategy_list({"fenced", "ttl"}, {}, "--strategy", runs),
            (std::vector<Strategy>{Strategy::fenced, Strategy::ttl}));
}

TEST(ParseStrategyList, ANameGivenTwiceIsRefused) {
  EXPECT_EQ(refusal({"ttl", "fenced-claim", "ttl"}), "--strategies: 'ttl' is named twice");
}

TEST(ParseStrategyList, NoneOrAnEmptyItemBesideOthersIsRefused) {
  EXPECT_EQ(refusal({"none", "ttl"}), "--strategies: 'none' stands alone, for no strategy");
  EXPECT_EQ(refusal({"ttl", ""}), "--strategies: '' stands alone, for no strategy");
  EXPECT_EQ(refusal({"none", "none"}), "--strategies: 'none' stands alone, for no strategy");
}

}  // namespace
}  // namespace rlock::lab
