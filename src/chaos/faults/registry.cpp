// The registry of faults: each defined in a file of its own in this folder, listed here in the
// order of the table, of --faults and of the run files. A new fault is a new file and its line.
#include <algorithm>

#include <fmt/format.h>

#include "chaos/faults/fault.h"
#include "rlock/error.h"

namespace rlock::chaos {
namespace faults {

const FaultModel &none(), &pause(), &slow(), &kill(), &redis_restart(), &failover(), &partition(), &delayed_write(),
    &redis_stall(), &net_delay(), &clock_skew(), &pause_waiter(), &conn_drop();

}  // namespace faults

const std::vector<Fault>& all_faults() {
  static const std::vector<Fault> all{faults::none(),      faults::pause(),         faults::slow(),
                                      faults::kill(),      faults::redis_restart(), faults::failover(),
                                      faults::partition(), faults::delayed_write(), faults::redis_stall(),
                                      faults::net_delay(), faults::clock_skew(),    faults::pause_waiter(),
                                      faults::conn_drop()};
  return all;
}

Fault::Fault() : model_(&faults::none()) {}

std::optional<Fault> fault_from(std::string_view name) {
  const std::vector<Fault>& all = all_faults();
  auto it = std::find_if(all.begin(), all.end(), [&](Fault f) { return f->name() == name; });
  return it == all.end() ? std::nullopt : std::optional<Fault>(*it);
}

Fault fault_named(std::string_view name) {
  std::optional<Fault> fault = fault_from(name);
  if (!fault) throw Error(fmt::format("unknown fault '{}'", name));
  return *fault;
}

}  // namespace rlock::chaos
