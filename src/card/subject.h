// What `rlock judge` judges (docs/judge.md): one lock client, a shipped adapter by its catalogue
// name (NAME or NAME@V) or the user's own NAME=COMMAND, with the fenced variant the catalogue pairs
// it with, the scenarios written for it (scenario/scenario_run.h) at the version judged, the TTL its
// library honours and the faults that apply to the kind of server its lock lives on. Reads the
// catalogue (protocol/client_catalogue.h) and the scenarios when given a name; otherwise plain values
// and functions; thread-safe.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "chaos/chaos.h"
#include "protocol/client_spec.h"
#include "scenario/scenario_run.h"

namespace rlock::card {

struct Subject {
  protocol::ClientSpec client;
  std::optional<protocol::ClientSpec> fenced;     // run beside it, where the catalogue names one
  std::string library;                            // the catalogue's library and version; empty for one's own
  long ttl_step_ms = 1;                           // the library rounds a TTL up to a multiple of this
  std::string version;                            // the library's version judged (3.5.21); empty: unknown
  std::vector<scenario::ScenarioPlan> scenarios;  // those written for it that name that version
  std::vector<std::string> other_scenarios;       // written for it, for other versions: "NAME (3.4.3)"
};

// `text` as a catalogue name or NAME=COMMAND (NAME@3=COMMAND: three Redis servers, chaos's rule);
// `client_server` (redis, redis@3, etcd, zookeeper) says where one's own client's lock lives
// (default redis) and is refused beside a catalogue name, whose manifest says it. Throws
// UsageError, in one line, for anything else, and as chaos's --client does (a name not shipped or
// not installed, its fenced variant too). `scenario_trials` is the trials a scenario's version runs
// (0: the scenario's own).
Subject subject_of(const std::string& text, const std::optional<std::string>& client_server, int scenario_trials);

// A TTL the judged library honours: `asked_ms` (or kDefaultTtlMs) rounded up to its step, and the
// one line that says so when it was rounded; empty when it was not.
struct Ttl {
  std::chrono::milliseconds ttl;
  std::string rounded;
};
inline constexpr long kDefaultTtlMs = 1000;  // whole seconds, and long enough for a JVM's start
Ttl ttl_for(const Subject& subject, std::optional<long> asked_ms);
// A TTL's step as the verdict says it: "whole seconds", "steps of 500 ms".
std::string ttl_unit(long step_ms);

// The registry's faults that apply to the client's server kind on `topology` (not n/a for it), in
// the registry's order, and when `histories`, those a history can strike (chaos/workload.h); with
// `names`, those alone, each of which must apply (UsageError naming the ones that do).
std::vector<chaos::Fault> faults_for(const protocol::ClientSpec& client, const std::vector<std::string>& names,
                                     bool histories, chaos::Topology topology = chaos::Topology::single);

// A topology the subject is judged on, and the faults that run on it.
struct JudgedTopology {
  chaos::Topology topology;
  std::vector<chaos::Fault> faults;
};
// Every topology the client's manifest lists (single, and cluster where its adapter takes a
// cluster's members), or `only` that one, each with the faults of `names` (all, when none) that
// apply there; a topology none of them applies to is left out. Throws UsageError, in one line, for
// `only` a topology the adapter does not take, or a name that applies on none of them.
std::vector<JudgedTopology> topologies_for(const protocol::ClientSpec& client, const std::vector<std::string>& names,
                                           bool histories, std::optional<chaos::Topology> only);

}  // namespace rlock::card
