#include "chaos/chaos.h"

#include "util/enum_names.h"

namespace rlock {
namespace {

constexpr NameTable<Fault, 11> kFaults{{{Fault::none, "none"},
                                       {Fault::pause, "pause"},
                                       {Fault::slow, "slow"},
                                       {Fault::kill, "kill"},
                                       {Fault::redis_restart, "redis-restart"},
                                       {Fault::failover, "failover"},
                                       {Fault::partition, "partition"},
                                       {Fault::delayed_write, "delayed-write"},
                                       {Fault::redis_stall, "redis-stall"},
                                       {Fault::net_delay, "net-delay"},
                                       {Fault::clock_skew, "clock-skew"}}};

}  // namespace

std::string_view to_string(Fault fault) { return name_in(kFaults, fault); }
std::optional<Fault> fault_from(std::string_view name) { return value_in(kFaults, name); }

const std::vector<Fault>& all_faults() {
  static const std::vector<Fault> all = values_in(kFaults);
  return all;
}

bool through_proxies(Fault fault) {
  return fault == Fault::partition || fault == Fault::delayed_write || fault == Fault::net_delay;
}

bool strikes_server(Fault fault) {
  return fault == Fault::redis_restart || fault == Fault::failover || fault == Fault::redis_stall;
}

bool expected_safe(Strategy strategy, Fault) {
  switch (strategy) {
    case Strategy::fenced_claim:
    case Strategy::pg_atomic:
    case Strategy::pg_row_lock:
    case Strategy::pg_advisory:
      return true;
    default:
      return false;
  }
}

std::string_view not_applicable(Strategy strategy, Fault fault) {
  bool on_redis = strikes_server(fault) || fault == Fault::partition;
  if (in_postgres(strategy) && on_redis) return "Redis unused";
  if (strategy == Strategy::pg_atomic && (fault == Fault::pause || fault == Fault::slow || fault == Fault::clock_skew)) return "no lock held";
  return "";
}

std::string_view not_applicable_to_client(Fault fault) {
  return fault == Fault::clock_skew ? "clock not skewed" : "";
}

std::string row_name(const TrialSpec& spec) {
  return spec.client ? spec.client->name : std::string(to_string(spec.strategy));
}

bool on_three_servers(const TrialSpec& spec) {
  return spec.client ? spec.client->servers == 3 : spec.strategy == Strategy::redlock;
}

bool TrialResult::anomaly() const {
  if (not_run || !error.empty() || !client_error.empty()) return false;
  return lost.validity != Validity::valid || overlaps.validity != Validity::valid ||
         fences.validity != Validity::valid || balance.validity == Validity::invalid;
}

}  // namespace rlock
