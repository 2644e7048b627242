// clock-offset: the target's wall clock runs 3 minutes behind the host's, from the moment its process
// starts, as a node whose NTP has drifted (ShedLock#231's two nodes, 3 minutes apart); its monotonic
// clock, its timed waits and its sleeps are the host's, as on such a node. The offset is fixed, not
// drawn: 3 minutes is past every TTL a campaign takes, so a lease computed from the target's wall
// clock and written to the server (ShedLock's lock_until by its JDBC provider without
// usingDbTime()) is already over by the others' clocks when it is written, and a lease the others
// wrote reads 3 minutes longer by the target's clock, which waits it out. A lease the server times
// (Redis's PX, etcd's and ZooKeeper's sessions) is what it was. A protocol client's process starts
// with Debian's libfaketime preloaded (it reaches the JVM and Node adapters, as clock-skew does);
// the built-in strategies' leases are all their servers'. Nothing strikes; it counts as struck once
// the target has read.
#include "chaos/faults/strikes.h"

namespace rlock::chaos::faults {
namespace {

// libfaketime's offset of the target's wall clock: 3 minutes behind the host's.
constexpr const char* kBehind = "-180";  // seconds

class ClockOffset : public FaultModel {
 public:
  std::string_view name() const override { return "clock-offset"; }
  std::string_view not_applicable(lab::Strategy) const override { return "its lease is timed by its server"; }
  std::vector<std::string> target_client_environment(const Schedule&) const override {
    return {"LD_PRELOAD=" + libfaketime(), std::string("FAKETIME=") + kBehind, "FAKETIME_DONT_FAKE_MONOTONIC=1"};
  }
  bool skews_client_clock() const override { return true; }
  bool struck(const Schedule& schedule, const std::vector<lab::Event>& events) const override {
    return FaultModel::struck(schedule, events) || target_read(schedule, events);
  }
};

}  // namespace

const FaultModel& clock_offset() {
  static const ClockOffset fault;
  return fault;
}

}  // namespace rlock::chaos::faults
