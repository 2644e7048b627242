// none: no fault; the trials show what the strategy does on its own.
#include "chaos/faults/fault.h"

namespace rlock::chaos::faults {
namespace {

class None : public FaultModel {
 public:
  std::string_view name() const override { return "none"; }
  bool runs_in_netns() const override { return true; }
};

}  // namespace

const FaultModel& none() {
  static const None fault;
  return fault;
}

}  // namespace rlock::chaos::faults
