#include "explore/world.h"

#include <gtest/gtest.h>

#include "rlock/error.h"

namespace rlock::explore {
namespace {

TEST(WorldTest, EveryTokenReadsBackAsWritten) {
  std::string text =
      "A:acquire A:fence A:claim A:read A:write A:extend A:release expire pause:B resume:B restart failover";
  EXPECT_EQ(order_text(parse_order(text, 2)), text);
}

TEST(WorldTest, AnUnknownTokenOrAWorkerBeyondTheWorldIsAUsageError) {
  EXPECT_THROW(parse_order("A:acquire A:sleep", 2), UsageError);
  EXPECT_THROW(parse_order("C:read", 2), UsageError);
  EXPECT_THROW(parse_order("pause", 2), UsageError);
  EXPECT_THROW(parse_order("   ", 2), UsageError);
  EXPECT_NO_THROW(parse_order("C:read", 3));
}

TEST(WorldTest, ATrailGivesItsStepLinesInOrderAndSkipsTheEchoedPrintf) {
  Order order = read_trail(RLOCK_TESTDATA "/ttl-trail.txt", 2);
  EXPECT_EQ(order_text(order), "A:acquire A:read expire B:acquire B:read B:write B:release A:write A:release");
}

TEST(WorldTest, ATrailWithAnUnknownTokenOrNoStepIsRefused) {
  EXPECT_THROW(order_from_trail("STEP A:nap\n", 2), UsageError);
  EXPECT_THROW(order_from_trail("spin: no trail\n", 2), UsageError);
  EXPECT_THROW(read_trail("/nonexistent/trail", 2), UsageError);
}

TEST(WorldTest, ATrailOfMoreStepsThanTheBoundIsRefused) {
  std::string text;
  for (std::size_t i = 0; i <= kMaxTrailSteps; ++i) text += "STEP A:read\n";
  EXPECT_THROW(order_from_trail(text, 2), UsageError);
}

TEST(WorldTest, EventsAreNamedAsTheCommandLineNamesThem) {
  EXPECT_EQ(world_event_from("expiry"), WorldEvent::expiry);
  EXPECT_EQ(to_string(WorldEvent::failover), "failover");
  EXPECT_FALSE(world_event_from("expire"));
}

}  // namespace
}  // namespace rlock::explore
