// The registry of faults: each defined in a file of its own in this folder, listed here in the
// order of the table, of --faults and of the run files. A new fault is a new file and its line.
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

#include <fmt/format.h>

#include "chaos/faults/fault.h"
#include "nemesis/operation.h"
#include "rlock/error.h"

namespace rlock::chaos {
namespace faults {

const FaultModel &none(), &pause(), &slow(), &kill(), &redis_restart(), &failover(), &partition(), &delayed_write(),
    &redis_stall(), &net_delay(), &clock_skew(), &pause_waiter(), &conn_drop(), &lost_reply(), &session_expiry(),
    &starved_renewal(), &pause_late(), &clock_offset(), &conn_refused(), &leader_pause(), &leader_kill(),
    &follower_pause(), &member_pause(), &lost_request();

}  // namespace faults

const std::vector<Fault>& all_faults() {
  static const std::vector<Fault> all{
      faults::none(),          faults::pause(),          faults::slow(),           faults::kill(),
      faults::redis_restart(), faults::failover(),       faults::partition(),      faults::delayed_write(),
      faults::redis_stall(),   faults::net_delay(),      faults::clock_skew(),     faults::pause_waiter(),
      faults::conn_drop(),     faults::lost_reply(),     faults::session_expiry(), faults::starved_renewal(),
      faults::pause_late(),    faults::clock_offset(),   faults::conn_refused(),   faults::leader_pause(),
      faults::leader_kill(),   faults::follower_pause(), faults::member_pause(),   faults::lost_request()};
  return all;
}

Fault::Fault() : model_(&faults::none()) {}

std::optional<Fault> fault_from(std::string_view name) {
  const std::vector<Fault>& all = all_faults();
  auto it = std::find_if(all.begin(), all.end(), [&](Fault f) { return f->name() == name; });
  return it == all.end() ? std::nullopt : std::optional<Fault>(*it);
}

namespace {

class Explored : public FaultModel {
 public:
  explicit Explored(std::string name) : name_(std::move(name)) {}
  std::string_view name() const override { return name_; }

 private:
  std::string name_;
};

// The explored faults met so far, one model a name, living as long as the program.
Fault explored_named(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<Explored>, std::less<>> models;
  std::lock_guard lock(mutex);
  std::unique_ptr<Explored>& model = models[name];
  if (!model) model = std::make_unique<Explored>(name);
  return *model;
}

}  // namespace

Fault explored_fault(const std::vector<std::string_view>& operations) {
  std::string name;
  for (std::string_view op : operations) name += (name.empty() ? "" : "+") + std::string(op);
  if (name.empty()) return Fault();
  return fault_from(name).value_or(explored_named(name));
}

std::optional<Fault> recorded_fault_from(std::string_view name) {
  if (std::optional<Fault> fault = fault_from(name)) return fault;
  for (std::string_view rest = name;;) {
    std::string_view part = rest.substr(0, rest.find('+'));
    if (!nemesis::op_kind_from(part)) return std::nullopt;
    if (part.size() == rest.size()) return explored_named(std::string(name));
    rest.remove_prefix(part.size() + 1);
  }
}

Fault fault_named(std::string_view name) {
  std::optional<Fault> fault = fault_from(name);
  if (!fault) throw Error(fmt::format("unknown fault '{}'", name));
  return *fault;
}

}  // namespace rlock::chaos
