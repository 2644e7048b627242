#include "chaos/chaos.h"

#include "util/enum_names.h"

namespace rlock::chaos {
namespace {

constexpr util::NameTable<Topology, 2> kTopologyNames{{{Topology::single, "single"}, {Topology::cluster, "cluster"}}};

// Why a cell cannot run on `topology` whatever its fault strikes; empty when it can.
std::string_view not_on(Fault fault, Topology topology, bool cluster_row) {
  if (topology == Topology::cluster && !cluster_row) return "one server only";
  if (topology == Topology::single && fault->needs_cluster()) return "no cluster";
  return {};
}

}  // namespace

bool has_cluster(protocol::ServerKind kind) {
  return kind == protocol::ServerKind::etcd || kind == protocol::ServerKind::zookeeper;
}

std::string_view to_string(Topology topology) { return util::name_in(kTopologyNames, topology); }
std::optional<Topology> topology_from(std::string_view name) { return util::value_in(kTopologyNames, name); }

bool expected_safe(lab::Strategy strategy, Fault fault) { return fault->expected_safe(strategy); }
std::string_view not_applicable(lab::Strategy strategy, Fault fault, Topology topology) {
  std::string_view reason = not_on(fault, topology, false);
  return reason.empty() ? fault->not_applicable(strategy) : reason;
}

std::string_view not_applicable_to_client(Fault fault, const protocol::ClientSpec& client, Topology topology) {
  std::string_view reason = not_on(fault, topology, client.cluster && has_cluster(client.server));
  if (reason.empty()) reason = fault->not_applicable_to_client(client.server);
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
