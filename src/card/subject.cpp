#include "card/subject.h"

#include <algorithm>

#include <fmt/format.h>

#include "protocol/client_catalogue.h"
#include "protocol/client_list.h"
#include "rlock/error.h"
#include "scenario/scenario_set.h"

namespace rlock::card {
namespace {

// The user's own client, its server kind as --client-server gives it.
protocol::ClientSpec own_client(const std::string& text, const std::optional<std::string>& client_server) {
  protocol::ClientSpec client = protocol::parse_command_line_clients({text}).front();
  if (!client_server) return client;
  std::string kind = *client_server;
  int servers = 1;
  if (kind == "redis@3") servers = 3, kind = "redis";
  std::optional<protocol::ServerKind> server = protocol::server_kind_from(kind);
  if (!server) {
    throw UsageError(fmt::format("--client-server {}: expected redis, redis@3, etcd or zookeeper", *client_server));
  }
  if (client.servers == 3 && servers != 3) {
    throw UsageError(
        fmt::format("--client-server {}: {}@3 already asks for three Redis servers", *client_server, client.name));
  }
  client.server = *server;
  client.servers = std::max(client.servers, servers);
  return client;
}

// The scenarios written for the subject's client, planned at the version judged.
void plan_scenarios(Subject& subject, const protocol::Catalogue& catalogue, int trials) {
  if (subject.version.empty()) return;
  for (const scenario::Scenario& s :
       scenario::scenarios_for_client(scenario::shipped_scenarios(), subject.client.name)) {
    if (std::find(s.versions.begin(), s.versions.end(), subject.version) == s.versions.end()) {
      std::string versions;
      for (const std::string& v : s.versions) versions += (versions.empty() ? "" : ", ") + v;
      subject.other_scenarios.push_back(fmt::format("{} ({})", s.name, versions));
      continue;
    }
    subject.scenarios.push_back(scenario::plan_scenario(s, catalogue, {trials, {subject.version}}));
  }
}

}  // namespace

Subject subject_of(const std::string& text, const std::optional<std::string>& client_server, int scenario_trials) {
  if (text.find('=') != std::string::npos) return Subject{own_client(text, client_server), {}, "", 1, "", {}, {}};
  if (client_server) {
    throw UsageError(fmt::format("--client-server is for one's own NAME=COMMAND: {}'s manifest says its server", text));
  }
  protocol::Catalogue catalogue = protocol::shipped_catalogue();
  const protocol::CatalogueEntry& entry = protocol::shipped_client(catalogue, text);
  Subject subject{entry.spec, {}, entry.version, entry.spec.ttl_step_ms, entry.version_number, {}, {}};
  if (!entry.fenced.empty()) subject.fenced = protocol::shipped_client(catalogue, entry.fenced).spec;
  plan_scenarios(subject, catalogue, scenario_trials);
  return subject;
}

std::string ttl_unit(long step_ms) {
  return step_ms == 1000 ? "whole seconds" : fmt::format("steps of {} ms", step_ms);
}

Ttl ttl_for(const Subject& subject, std::optional<long> asked_ms) {
  long asked = asked_ms.value_or(kDefaultTtlMs);
  long step = subject.ttl_step_ms;
  long ttl = (asked + step - 1) / step * step;
  if (ttl == asked) return {std::chrono::milliseconds(ttl), ""};
  return {std::chrono::milliseconds(ttl), fmt::format("{}'s library counts its TTL in {}: --ttl {} is judged as {} ms",
                                                      subject.client.name, ttl_unit(step), asked, ttl)};
}

std::vector<chaos::Fault> faults_for(const protocol::ClientSpec& client, const std::vector<std::string>& names,
                                     bool histories, chaos::Topology topology) {
  std::vector<chaos::Fault> apply;
  std::string known;
  for (chaos::Fault fault : histories ? chaos::history_faults() : chaos::all_faults()) {
    if (!chaos::not_applicable_to_client(fault, client, topology).empty()) continue;
    apply.push_back(fault);
    known += (known.empty() ? "" : ",") + std::string(to_string(fault));
  }
  if (names.empty()) return apply;
  std::vector<chaos::Fault> chosen;
  for (const std::string& name : names) {
    auto fault = std::find_if(apply.begin(), apply.end(), [&](chaos::Fault f) { return to_string(f) == name; });
    if (fault == apply.end()) {
      std::optional<chaos::Fault> named = chaos::fault_from(name);
      if (histories && named && !chaos::history_refusal(*named).empty()) {
        throw UsageError(fmt::format("--faults {}: no history's operation: {}", name, chaos::history_refusal(*named)));
      }
      throw UsageError(fmt::format("--faults {}: not a fault that applies to {}'s {} lock (those that do: {})", name,
                                   client.name, protocol::to_string(client.server), known));
    }
    if (std::find(chosen.begin(), chosen.end(), *fault) == chosen.end()) chosen.push_back(*fault);
  }
  return chosen;
}

std::vector<JudgedTopology> topologies_for(const protocol::ClientSpec& client, const std::vector<std::string>& names,
                                           bool histories, std::optional<chaos::Topology> only) {
  std::vector<chaos::Topology> listed{chaos::Topology::single};
  if (client.cluster) listed.push_back(chaos::Topology::cluster);
  if (only && std::find(listed.begin(), listed.end(), *only) == listed.end()) {
    throw UsageError(fmt::format("--topology {}: {}'s adapter takes one server (its manifest lists single)",
                                 to_string(*only), client.name));
  }
  std::vector<JudgedTopology> judged;
  std::vector<std::string> applied;  // the names that apply on some topology
  for (chaos::Topology topology : listed) {
    if (only && topology != *only) continue;
    JudgedTopology t{topology, {}};
    for (chaos::Fault fault : faults_for(client, {}, histories, topology)) {
      std::string name(to_string(fault));
      if (!names.empty() && std::find(names.begin(), names.end(), name) == names.end()) continue;
      t.faults.push_back(fault);
      applied.push_back(name);
    }
    if (!t.faults.empty()) judged.push_back(std::move(t));
  }
  for (const std::string& name : names) {  // one that applies nowhere: the single topology's error
    if (std::find(applied.begin(), applied.end(), name) == applied.end())
      faults_for(client, {name}, histories, only.value_or(chaos::Topology::single));
  }
  return judged;
}

}  // namespace rlock::card
