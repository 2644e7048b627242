// A built-in strategy as a protocol client, against the real Redis (REDIS_URL): the harness's
// lines written ahead (init, increment, the read's and the write's answers), the client's read
// back. The served account gets what PostgreSQL's gets: the balance read plus the amount, with the
// lease's fence where the strategy fences, and a claim where it claims.
#include "protocol/strategy_client.h"

#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "protocol/codec.h"
#include "testing/test_env.h"

namespace rlock::protocol {
namespace {

// The client's messages when the harness sends `answers` after init and one increment of 7 on `key`.
std::vector<ClientMessage> client_says(lab::Strategy strategy, const std::string& key,
                                       const std::vector<HarnessMessage>& answers) {
  LockKey lock = LockKey::named(key);
  RedisConnection(testing::servers().redis).checked({"DEL", lock.lock, lock.fence_counter});
  std::string lines = encode(Init{kVersion, "T", {testing::servers().redis.url()}, 2000, std::nullopt}) + "\n" +
                      encode(Increment{1, key, 7}) + "\n";
  for (const HarnessMessage& answer : answers) lines += encode(answer) + "\n";
  std::istringstream in(lines);
  std::ostringstream out;
  run_strategy_client(strategy, WaitMode::poll, in, out);
  std::vector<ClientMessage> said;
  std::istringstream written(out.str());
  for (std::string line; std::getline(written, line);) said.push_back(decode_client_message(line));
  return said;
}

TEST(StrategyClient, TtlWritesTheBalanceReadPlusTheAmount) {
  std::vector<ClientMessage> said = client_says(lab::Strategy::ttl, "test:strategy-client:ttl",
                                                {ReadOk{1, 100, std::nullopt}, WriteOk{1, true}, StepOk{1}});
  std::vector<ClientMessage> want{InitOk{}, Read{1, std::nullopt, false}, Write{1, 107, std::nullopt},
                                  Step{1, "release"}, Done{1, std::nullopt}};
  EXPECT_EQ(said, want);
}

// The fence counter deleted, the first lease's fence is 1: claimed at the read, written with it.
TEST(StrategyClient, FencedClaimClaimsAtTheReadAndWritesWithTheFence) {
  std::vector<ClientMessage> said = client_says(lab::Strategy::fenced_claim, "test:strategy-client:claim",
                                                {ReadOk{1, 100, true}, WriteOk{1, true}, StepOk{1}});
  std::vector<ClientMessage> want{InitOk{}, Read{1, 1, true}, Write{1, 107, 1}, Step{1, "release"},
                                  Done{1, std::nullopt}};
  EXPECT_EQ(said, want);
}

// The harness rejects the write: fenced gives up, saying why, in its done.
TEST(StrategyClient, FencedReportsARejectedWriteInItsDone) {
  std::vector<ClientMessage> said = client_says(lab::Strategy::fenced, "test:strategy-client:fenced",
                                                {ReadOk{1, 100, std::nullopt}, WriteOk{1, false}, StepOk{1}});
  ASSERT_EQ(said.size(), 5U);
  EXPECT_EQ(said[2], ClientMessage(Write{1, 107, 1}));
  EXPECT_EQ(said[3], ClientMessage(Step{1, "release"}));
  const Done* done = std::get_if<Done>(&said[4]);
  ASSERT_NE(done, nullptr);
  ASSERT_TRUE(done->error.has_value());
  EXPECT_NE(done->error->find("rejected"), std::string::npos) << *done->error;
}

}  // namespace
}  // namespace rlock::protocol
