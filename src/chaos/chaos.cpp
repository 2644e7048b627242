#include "chaos/chaos.h"

namespace rlock::chaos {

bool expected_safe(lab::Strategy strategy, Fault fault) { return fault->expected_safe(strategy); }
std::string_view not_applicable(lab::Strategy strategy, Fault fault) { return fault->not_applicable(strategy); }
std::string_view not_applicable_to_client(Fault fault, const protocol::ClientSpec& client) {
  std::string_view reason = fault->not_applicable_to_client(client.server);
  // A fault proxy stands between a worker and one address; a Hazelcast client reaches every member.
  if (reason.empty() && client.server == protocol::ServerKind::hazelcast && fault->through_proxies())
    return "no proxy to its members";
  if (reason.empty() && fault->skews_client_clock() && !client.skewable_clock) return "clock not skewed";
  return reason;
}

std::string row_name(const TrialSpec& spec) {
  return spec.client ? spec.client->name : std::string(to_string(spec.strategy));
}

bool on_three_servers(const TrialSpec& spec) {
  return spec.client ? spec.client->servers == 3 : lab::lock_servers(spec.strategy) == 3;
}

}  // namespace rlock::chaos
