// The faults that hold a holder's connections past its lease or session (session-expiry,
// starved-renewal): where they apply, what they draw (a hold past the session, an answer to the
// read after the heal) and that they count as struck only when the hold lasted its whole time.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "chaos/faults/fault.h"
#include "chaos/generator.h"
#include "lab/event.h"

namespace rlock::chaos {
namespace {

using lab::Strategy;
using protocol::ServerKind;

Schedule schedule_of(std::string_view fault, int number, std::chrono::milliseconds ttl) {
  ChaosSetup setup;
  setup.seed = 7;
  setup.ttl = ttl;
  return schedule_for(TrialSpec{Strategy::watchdog, fault_named(fault), number, std::nullopt}, setup);
}

lab::Event network_event(double t, const std::string& target) {
  return lab::Event{t, "host", lab::EventKind::network, {{"action", "held"}, {"target", target}}};
}

TEST(LeaseFaults, SessionExpiryStrikesOnlyEtcdAndZooKeeperClients) {
  Fault fault = fault_named("session-expiry");
  EXPECT_EQ(fault->not_applicable_to_client(ServerKind::redis), "no session");
  EXPECT_EQ(fault->not_applicable_to_client(ServerKind::etcd), "");
  EXPECT_EQ(fault->not_applicable_to_client(ServerKind::zookeeper), "");
  for (Strategy strategy : lab::all_strategies()) EXPECT_EQ(fault->not_applicable(strategy), "no session");
  EXPECT_TRUE(fault->through_proxies());
}

TEST(LeaseFaults, StarvedRenewalStrikesOnlyALockThatRenewsOnRedis) {
  Fault fault = fault_named("starved-renewal");
  EXPECT_EQ(fault->not_applicable(Strategy::watchdog), "");
  EXPECT_EQ(fault->not_applicable(Strategy::ttl), "no renewal");
  EXPECT_EQ(fault->not_applicable(Strategy::fenced_claim), "no renewal");
  EXPECT_EQ(fault->not_applicable(Strategy::pg_row_lock), "Redis unused");
  EXPECT_EQ(fault->not_applicable_to_client(ServerKind::redis), "");
  EXPECT_EQ(fault->not_applicable_to_client(ServerKind::etcd), "Redis unused");
  EXPECT_EQ(fault->not_applicable_to_client(ServerKind::zookeeper), "Redis unused");
}

TEST(LeaseFaults, SessionExpiryHoldsPastTheWholeSecondsOfTheLeaseAndAnswersTheReadAfterTheHeal) {
  for (auto ttl : {std::chrono::milliseconds(500), std::chrono::milliseconds(1000), std::chrono::milliseconds(2500)}) {
    double ttl_s = std::chrono::duration<double>(ttl).count();
    for (int n = 0; n < 50; ++n) {
      Schedule s = schedule_of("session-expiry", n, ttl);
      EXPECT_GE(s.pause_s, std::ceil(ttl_s) + 0.75 * ttl_s);
      EXPECT_LE(s.pause_s, std::ceil(ttl_s) + 1.5 * ttl_s);
      double after_heal = s.workers[s.target].work_seconds - s.pause_s;
      EXPECT_GE(after_heal, 0.2 * ttl_s);
      EXPECT_LE(after_heal, 0.5 * ttl_s);
    }
  }
}

TEST(LeaseFaults, StarvedRenewalHoldsOneAndAHalfToThreeTtlsAndAnswersTheReadAfterTheHeal) {
  for (int n = 0; n < 50; ++n) {
    Schedule s = schedule_of("starved-renewal", n, std::chrono::milliseconds(1000));
    EXPECT_GE(s.pause_s, 1.5);
    EXPECT_LE(s.pause_s, 3.0);
    double after_heal = s.workers[s.target].work_seconds - s.pause_s;
    EXPECT_GE(after_heal, 0.1);
    EXPECT_LE(after_heal, 0.3);
  }
}

TEST(LeaseFaults, StruckOnlyWhenTheTargetWasHeldTheWholePause) {
  for (std::string_view name : {"session-expiry", "starved-renewal"}) {
    Fault fault = fault_named(name);
    Schedule s = schedule_of(name, 0, std::chrono::milliseconds(1000));
    const std::string& target = s.workers[s.target].name;
    const std::string other = target == "A" ? "B" : "A";
    EXPECT_TRUE(fault->struck(s, {network_event(0.1, target), network_event(0.1 + s.pause_s, target)})) << name;
    EXPECT_FALSE(fault->struck(s, {network_event(0.1, target), network_event(0.1 + s.pause_s - 0.01, target)}))
        << name << ": healed early, every worker done";
    EXPECT_FALSE(fault->struck(s, {network_event(0.1, target)})) << name << ": never healed";
    EXPECT_FALSE(fault->struck(s, {network_event(0.1, other), network_event(0.1 + s.pause_s, other)})) << name;
    EXPECT_FALSE(fault->struck(s, {})) << name;
  }
}

}  // namespace
}  // namespace rlock::chaos
