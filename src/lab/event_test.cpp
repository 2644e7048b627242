// An event's typed fields: what a record holds, empty when it lacks it, an error when it holds
// another type (never a silent 0).
#include "lab/event.h"

#include <gtest/gtest.h>

#include "rlock/error.h"

namespace rlock::lab {
namespace {

TEST(EventFields, ReadTheirTypedValues) {
  Event e = Event::from_json_line(
      R"({"t":1.5,"who":"B","event":"fenced_write","balance":180,"fence":34,"rowcount":0,"sent_at":1.25})");
  EXPECT_EQ(e.balance(), 180);
  EXPECT_EQ(e.fence(), 34);
  EXPECT_EQ(e.rowcount(), 0);
  EXPECT_DOUBLE_EQ(*e.sent_at(), 1.25);
}

TEST(EventFields, AMissingFieldIsEmptyNotZero) {
  Event e = Event::from_json_line(R"({"t":0,"who":"A","event":"acquired","ttl_ms":2000})");
  EXPECT_EQ(e.ttl_ms(), 2000);
  EXPECT_FALSE(e.fence().has_value());
  EXPECT_FALSE(e.rowcount().has_value());
}

TEST(EventFields, AFieldOfAnotherTypeThrows) {
  Event e = Event::from_json_line(R"({"t":0,"who":"A","event":"error","added":"yes","amount":30})");
  EXPECT_THROW(e.added(), Error);
  EXPECT_EQ(e.amount(), 30);
}

// Found by fuzz/event_line.cpp: a balance of 1.01845e+22 was converted to long long anyway, which
// is undefined; a float where an integer belongs is another type.
TEST(EventFields, AFloatWhereAnIntegerBelongsThrows) {
  Event e = Event::from_json_line(R"({"t":0,"who":"A","event":"read","balance":1.01845e22,"fence":1.5,"ttl_ms":2000})");
  EXPECT_THROW(e.balance(), Error);
  EXPECT_THROW(e.fence(), Error);
  EXPECT_EQ(e.ttl_ms(), 2000);
}

}  // namespace
}  // namespace rlock::lab
