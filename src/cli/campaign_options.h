// The options a chaos campaign takes whoever starts it (`rlock chaos`, `rlock scenario`, `rlock
// judge`): its seed, its jobs, the ports of the servers its jobs start and, when its trials are
// histories, their workload; bound once to a subcommand, checked, and turned into the campaign's
// setup on the servers a data-changing subcommand accepts. Functions; the add_ ones keep a
// reference to the options they bind.
#pragma once

#include <cstdint>
#include <optional>

#include <CLI/CLI.hpp>

#include "chaos/chaos.h"
#include "lab/worker_plan.h"

namespace rlock::cli {

struct CampaignOptions {
  std::optional<std::uint64_t> seed;
  int jobs = 8;
  int failover_port = chaos::ChaosSetup{}.failover_port;
  int redlock_port = chaos::ChaosSetup{}.redlock_port;
  long first_account = chaos::ChaosSetup{}.first_account;
  chaos::Topology topology = chaos::Topology::single;
  int cluster_port = chaos::ChaosSetup{}.cluster_port;
};

// Binds --seed, --jobs, --failover-port, --redlock-port and --account to `options`.
void add_campaign_options(CLI::App& cmd, CampaignOptions& options);
// Binds --topology and --cluster-port to `options` (`rlock chaos`'s; `rlock judge` binds its own
// --topology, which may be left unset, and the port alone).
void add_topology_options(CLI::App& cmd, CampaignOptions& options);
void add_cluster_port_option(CLI::App& cmd, CampaignOptions& options);
// The topology `name` names; throws UsageError, in one line, for another name.
chaos::Topology topology_named(const std::string& name);
// Binds --increments, --duration and --workers to `workload`: trials as histories (chaos/workload.h).
void add_workload_options(CLI::App& cmd, chaos::Workload& workload);

// A new seed, drawn from a token.
std::uint64_t random_seed();

// Job j's failover pair takes failover_port + 2j and the next port, its Redlock servers
// redlock_port + 3j and the next two, its clusters (on a cluster) cluster_port + 15j and the next
// 14 (chaos/job.h): throws UsageError, in one line, when two ranges meet, for the campaign would stop
// at its first trial that needs a port the other range took.
void check_own_ports(const CampaignOptions& options);

// The setup of a campaign on `lab`'s servers, kept under its chaos/ folder, its seed the one given
// or a new one.
chaos::ChaosSetup campaign_setup(const CampaignOptions& options, const lab::RunSetup& lab);

}  // namespace rlock::cli
