#include "cli/campaign_options.h"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "chaos/campaign.h"
#include "chaos/job.h"
#include "rlock/error.h"
#include "rlock/token.h"
#include "util/option_checks.h"

namespace rlock::cli {

void add_campaign_options(CLI::App& cmd, CampaignOptions& options) {
  cmd.add_option("--seed", options.seed, "replay the trials of this seed (default: a new one, printed)");
  cmd.add_option("--jobs", options.jobs, "trials run side by side")
      ->check(util::in_range(1, chaos::kMaxJobs))
      ->capture_default_str();
  cmd.add_option("--failover-port", options.failover_port,
                 "failover trials run a primary and a replica of their own on 127.0.0.1 from this port, two a job")
      ->check(util::in_range(chaos::kMinOwnPort, chaos::kMaxOwnPort))
      ->capture_default_str();
  cmd.add_option("--redlock-port", options.redlock_port,
                 "redlock trials run three Redis servers of their own on 127.0.0.1 from this port, three a job")
      ->check(util::in_range(chaos::kMinOwnPort, chaos::kMaxOwnPort))
      ->capture_default_str();
  cmd.add_option("--account", options.first_account,
                 "N: trial i uses account N + i and its lock; campaigns run at once on the same servers each take "
                 "accounts of their own")
      ->check(util::in_range(chaos::kMinFirstAccount, chaos::kMaxFirstAccount))
      ->capture_default_str();
}

chaos::Topology topology_named(const std::string& name) {
  std::optional<chaos::Topology> topology = chaos::topology_from(name);
  if (!topology) throw UsageError(fmt::format("--topology {}: not a topology ({})", name, chaos::kTopologies));
  return *topology;
}

void add_cluster_port_option(CLI::App& cmd, CampaignOptions& options) {
  cmd.add_option("--cluster-port", options.cluster_port,
                 "on a cluster, each job's cluster members listen on 127.0.0.1 from this port, 15 a job")
      ->check(util::in_range(chaos::kMinOwnPort, chaos::kMaxOwnPort))
      ->capture_default_str();
}

void add_topology_options(CLI::App& cmd, CampaignOptions& options) {
  cmd.add_option_function<std::string>(
         "--topology", [&options](const std::string& name) { options.topology = topology_named(name); },
         "the lock's servers: single (one server, the default) or cluster (an etcd cluster or a ZooKeeper "
         "ensemble of three members of each job's own, for clients whose adapter takes them; docs/chaos.md)")
      ->option_text("single|cluster");
  add_cluster_port_option(cmd, options);
}

void add_workload_options(CLI::App& cmd, chaos::Workload& workload) {
  cmd.add_option("--increments", workload.increments,
                 "K: each trial a history, each worker a client process making K increments back to back "
                 "(docs/chaos.md)")
      ->check(util::in_range(1, chaos::kMaxHistoryIncrements));
  cmd.add_option("--duration", workload.duration_s,
                 "S: each trial a history of S seconds, its workers making increments back to back")
      ->check(util::in_range(0.1, chaos::kMaxHistorySeconds));
  CLI::Option* workers = cmd.add_option("--workers", workload.workers, "a history's workers, each one client process")
                             ->check(util::in_range(chaos::kMinHistoryWorkers, chaos::kMaxHistoryWorkers))
                             ->capture_default_str();
  cmd.parse_complete_callback([workers, &workload] {
    if (workers->count() > 0 && !workload.history())
      throw UsageError("--workers counts a history's workers: give --increments K or --duration S beside it");
  });
}

std::uint64_t random_seed() {
  std::string hex = make_token().hex.substr(0, 12);
  return std::stoull(hex, nullptr, 16);
}

void check_own_ports(const CampaignOptions& options) {
  struct Range {
    const char* option;
    const char* servers;
    int first, last;
  };
  std::vector<Range> ranges{
      {"--failover-port", "the failover servers", options.failover_port, options.failover_port + 2 * options.jobs - 1},
      {"--redlock-port", "the Redlock ones", options.redlock_port, options.redlock_port + 3 * options.jobs - 1}};
  if (options.topology == chaos::Topology::cluster) {
    ranges.push_back({"--cluster-port", "the cluster members", options.cluster_port,
                      options.cluster_port + chaos::kClusterPortsAJob * options.jobs - 1});
  }
  for (std::size_t a = 0; a < ranges.size(); ++a) {
    for (std::size_t b = a + 1; b < ranges.size(); ++b) {
      const Range &x = ranges[a], &y = ranges[b];
      if (x.first > y.last || y.first > x.last) continue;
      throw UsageError(fmt::format("{} {} and {} {} overlap with {} jobs: {} take ports {} to {}, {} {} to {}",
                                   x.option, x.first, y.option, y.first, options.jobs, x.servers, x.first, x.last,
                                   y.servers, y.first, y.last));
    }
  }
}

chaos::ChaosSetup campaign_setup(const CampaignOptions& options, const lab::RunSetup& lab) {
  chaos::ChaosSetup setup;
  setup.redis = lab.redis;
  setup.conninfo = lab.conninfo;
  setup.dir = lab.dir.root() / "chaos";
  setup.seed = options.seed.value_or(random_seed());
  setup.failover_port = options.failover_port;
  setup.redlock_port = options.redlock_port;
  setup.cluster_port = options.cluster_port;
  setup.first_account = options.first_account;
  return setup;
}

}  // namespace rlock::cli
