#include "nemesis/operation.h"

#include <gtest/gtest.h>

namespace rlock::nemesis {
namespace {

TEST(Operation, ItsTokenNamesItBack) {
  for (const Operation& op :
       {Operation{OpKind::pause, "A"}, Operation{OpKind::resume, "B"}, Operation{OpKind::kill, "C"},
        Operation{OpKind::partition, "A"}, Operation{OpKind::heal, "A"}, Operation{OpKind::expire, {}},
        Operation{OpKind::restart, {}}, Operation{OpKind::failover, {}}, Operation{OpKind::stall, {}},
        Operation{OpKind::unstall, {}}, Operation{OpKind::pause_member, "e2"}, Operation{OpKind::resume_member, "e2"},
        Operation{OpKind::kill_member, "e3"}, Operation{OpKind::start_member, "e3"}}) {
    EXPECT_EQ(operation_from(to_string(op)), op) << to_string(op);
  }
  EXPECT_EQ(to_string(Operation{OpKind::pause, "A"}), "pause:A");
  EXPECT_EQ(to_string(Operation{OpKind::expire, {}}), "expire");
  EXPECT_EQ(to_string(Operation{OpKind::pause_member, "e1"}), "pause-member:e1");
}

TEST(Operation, ATokenOfAnotherShapeIsNone) {
  for (std::string_view token :
       {"", "pause", "pause:", "expire:A", "nap", "A:read", "restart:B", "pause-member", "pause-member:"}) {
    EXPECT_FALSE(operation_from(token)) << token;
  }
}

TEST(Operation, TheRunLogGivesTheOperationsInTheirOrder) {
  std::vector<lab::Event> events{
      {0.1, "A", lab::EventKind::read, {{"balance", 0}}},
      {0.2, "host", lab::EventKind::signal, {{"signal", "SIGSTOP"}, {"target", "A"}, {"op", "pause:A"}}},
      {0.3, "host", lab::EventKind::lock_expired, {{"key", "lock:account:1"}, {"op", "expire"}}},
      {0.4, "host", lab::EventKind::signal, {{"signal", "SIGCONT"}, {"target", "A"}}},  // stored before ops had names
      {0.5, "host", lab::EventKind::redis_killed, {{"server", "127.0.0.1:6420"}, {"op", "failover"}}},
  };
  std::vector<Operation> expected{{OpKind::pause, "A"}, {OpKind::expire, {}}, {OpKind::failover, {}}};
  EXPECT_EQ(operations_in(events), expected);
}

}  // namespace
}  // namespace rlock::nemesis
