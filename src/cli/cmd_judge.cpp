// rlock judge NAME [--quick] [--trials N] [--faults LIST] [--ttl MS] [--client-server KIND]
// [--html FILE] [--seed S] [--jobs J] [--failover-port P] [--redlock-port P] [--topology T]
// [--cluster-port P] [--increments K | --duration S] [--workers W]: one lock client, a shipped
// adapter by its catalogue name or one's own NAME=COMMAND, under every fault that applies to its
// server kind (that a history can strike, with --increments or --duration: 2 histories a fault by
// default) on every topology its manifest lists, beside its fenced variant, as one chaos campaign a
// topology kept as a run; its verdict
// on stdout (card/verdict.h), its card as one HTML page (card/card_page.h). Exits 3 when it lost
// money (or two held the lock at once), 4 when it lost liveness alone, 1 when the run could not be
// done (a server the harness needs lost, too).
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "card/judgement.h"
#include "card/subject.h"
#include "cli/campaign_options.h"
#include "cli/commands.h"
#include "cli/named_servers.h"
#include "rlock/error.h"
#include "util/option_checks.h"

namespace rlock::cli {
namespace {

struct JudgeOptions {
  std::string name;
  bool quick = false;
  std::optional<int> trials;
  std::vector<std::string> faults;
  std::optional<long> ttl_ms;
  std::optional<std::string> client_server;
  std::optional<std::string> html;
  CampaignOptions campaign{.seed = std::nullopt, .jobs = 4};
  std::optional<chaos::Topology> topology;  // none: every topology the client's manifest lists
  chaos::Workload workload;                 // --increments, --duration, --workers: trials as histories
};

constexpr int kTrials = 10, kQuickTrials = 1, kQuickScenarioTrials = 2;
constexpr int kHistories = 2;  // a fault, without --quick or --trials

void judge(const JudgeOptions& options, const GlobalOptions& global) {
  CampaignOptions ports = options.campaign;
  ports.topology = chaos::Topology::cluster;  // a client whose manifest lists it runs there too
  check_own_ports(ports);
  // Every argument read before a server is asked.
  bool histories = options.workload.history();
  if (histories) chaos::check_workload(options.workload);
  card::Subject subject = card::subject_of(options.name, options.client_server,
                                           options.trials.value_or(options.quick ? kQuickScenarioTrials : 0));
  card::Ttl ttl = card::ttl_for(subject, options.ttl_ms);
  card::JudgeRequest request{subject,
                             card::topologies_for(subject.client, options.faults, histories, options.topology),
                             options.trials.value_or(options.quick ? kQuickTrials
                                                     : histories   ? kHistories
                                                                   : kTrials),
                             options.campaign.jobs,
                             options.html ? std::optional<std::filesystem::path>(*options.html) : std::nullopt,
                             options.workload};
  if (!ttl.rounded.empty()) fmt::print(stderr, "rlock: warning: {}\n", ttl.rounded);
  lab::RunSetup lab = setup_to_change_data(global, "judge", ServersChanged::redis_and_db);
  try {
    chaos::ChaosSetup setup = campaign_setup(options.campaign, lab);
    setup.ttl = ttl.ttl;
    card::Judgement judgement = card::run_judgement(request, setup, lab.lang);
    card::check_verdict(judgement.verdict);
  } catch (const chaos::HarnessLost& e) {
    throw Error(e.what());  // judge's 1: the run could not be done
  }
}

}  // namespace

void register_judge(CLI::App& app, const GlobalOptions& global) {
  auto options = std::make_shared<JudgeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "judge", "one lock client under every fault that applies to it, beside its fenced variant: a verdict and a card");
  cmd->add_option("NAME", options->name,
                  "a shipped adapter's name (rlock clients), or one's own NAME=COMMAND (NAME@3=COMMAND: three "
                  "Redis servers)")
      ->required();
  cmd->add_flag(
      "--quick", options->quick,
      "1 trial a fault, not 10: an answer in under two minutes, even for a JVM client beside its fenced variant");
  cmd->add_option("--trials", options->trials, "trials a fault, for the client and its fenced variant each")
      ->check(util::in_range(1, chaos::kMaxTrialsACell));
  cmd->add_option("--faults", options->faults, "comma-separated: only these of the faults that apply")->delimiter(',');
  cmd->add_option("--ttl", options->ttl_ms,
                  "lock TTL in ms (default 1000), rounded up to the step the library counts it in (a warning says so)")
      ->check(util::in_range(chaos::kMinTtlMs, chaos::kMaxTtlMs));
  cmd->add_option(
      "--client-server", options->client_server,
      "redis, redis@3, etcd or zookeeper: where one's own NAME=COMMAND client's lock lives (default redis)");
  cmd->add_option("--html", options->html, "write the card here (default: card.html in the run's directory)");
  add_campaign_options(*cmd, options->campaign);
  cmd->add_option_function<std::string>(
         "--topology", [options](const std::string& name) { options->topology = topology_named(name); },
         "judge on this topology alone: single or cluster (default: every one the client's manifest lists, each "
         "its own rows)")
      ->option_text("single|cluster");
  add_cluster_port_option(*cmd, options->campaign);
  add_workload_options(*cmd, options->workload);
  cmd->footer(
      "Exit status: 0 nothing lost; 3 money lost (lost updates, created money, two holders, a stale fence, an "
      "increment reported done and never written); 4 liveness lost only (increments stuck, or none succeeding); 2 a "
      "bad "
      "argument; 1 the run could not be done.");
  cmd->callback([options, &global] { judge(*options, global); });
}

}  // namespace rlock::cli
