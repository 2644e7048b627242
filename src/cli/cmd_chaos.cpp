// rlock chaos [--strategies LIST] [--faults LIST] [--trials N] [--seed S] [--jobs J] [--ttl MS]
// [--failover-port P] [--redlock-port P] [--wait poll|notify|queue|handoff] [--quick] [--json FILE]
// [--client NAME[@3]=COMMAND]... [--client-safe NAME]... [--netns] [--shard K/N]: randomized trials
// of every strategy and client under every fault (chaos.h), a table of anomaly rates on stdout,
// progress on stderr, the run stored under chaos/runs/ (run_record.h) with its report.html;
// --shard runs the K-th of N parts of the trials (campaign.h), for `rlock merge`; --replay-order
// ORDER|FILE runs one order of `rlock explore` as a trial instead. Exits 5 when the
// harness lost a server (the table holds the trials checked before), else 4 when a strategy or
// client that is expected to be safe showed an anomaly.
#include <algorithm>
#include <charconv>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "chaos/chaos.h"
#include "checker/tally.h"
#include "cli/campaign_options.h"
#include "cli/commands.h"
#include "cli/named_servers.h"
#include "cli/run_report.h"
#include "explore/order_trial.h"
#include "explore/summary.h"
#include "host/netns.h"
#include "lab/run_log.h"
#include "lab/strategy_list.h"
#include "protocol/client_list.h"
#include "rlock/error.h"
#include "runner/run_campaign.h"
#include "store/run_record.h"
#include "strategy/worker.h"
#include "util/option_checks.h"

namespace rlock::cli {
namespace {

struct ChaosOptions {
  std::vector<std::string> strategies;
  std::vector<std::string> faults;
  int trials = 200;
  CampaignOptions campaign;
  long ttl_ms = 200;
  WaitMode wait = WaitMode::poll;
  bool quick = false;
  std::string json;
  std::vector<std::string> clients;
  std::vector<std::string> safe_clients;
  bool netns = false;
  std::string shard;  // K/N; empty: the whole campaign
  std::optional<std::string> replay_order;
  chaos::Workload workload;            // --increments, --duration, --workers: trials as histories
  std::optional<std::string> nemesis;  // --nemesis: the histories' schedule
};

template <typename T, typename Parse>
std::vector<T> parse_list(const std::vector<std::string>& names, Parse&& parse, const char* flag, const char* what,
                          std::string known) {
  std::vector<T> values;
  for (const std::string& name : names) {
    auto value = parse(name);
    if (!value) throw UsageError(fmt::format("{}: unknown {} '{}' (known: {})", flag, what, name, known));
    values.push_back(*value);
  }
  return values;
}

template <typename T>
std::string names_of(const std::vector<T>& values) {
  std::string out;
  for (const T& v : values) out += (out.empty() ? "" : ",") + std::string(to_string(v));
  return out;
}

// The clients of --client (client_list.h), and those of --client-safe marked expected safe.
std::vector<protocol::ClientSpec> clients_of(const ChaosOptions& options) {
  std::vector<protocol::ClientSpec> clients = protocol::parse_command_line_clients(options.clients);
  for (const std::string& name : options.safe_clients) {
    auto client =
        std::find_if(clients.begin(), clients.end(), [&](const protocol::ClientSpec& c) { return c.name == name; });
    if (client == clients.end()) throw UsageError(fmt::format("--client-safe {}: no --client of that name", name));
    client->expected_safe = true;
  }
  return clients;
}

// --shard K/N (chaos::Shard): a UsageError for a text that is not one, K not from 1 to N, or N
// over kMaxShards or over the plan's trials.
chaos::Shard shard_of(const std::string& text, long long planned_trials) {
  chaos::Shard shard;
  auto slash = text.find('/');
  auto number = [](std::string_view digits, int& value) {
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    return !digits.empty() && error == std::errc{} && end == digits.data() + digits.size();
  };
  std::string_view all(text);
  if (slash == std::string::npos || !number(all.substr(0, slash), shard.index) ||
      !number(all.substr(slash + 1), shard.count)) {
    throw UsageError(fmt::format("--shard {}: expected K/N, the K-th of N parts, e.g. 2/4", text));
  }
  if (shard.count < 1 || shard.count > chaos::kMaxShards || shard.index < 1 || shard.index > shard.count) {
    throw UsageError(fmt::format("--shard {}: out of range: N from 1 to {}, K from 1 to N", text, chaos::kMaxShards));
  }
  if (shard.count > planned_trials) {
    throw UsageError(fmt::format("--shard {}: out of range: the campaign has {} trials, fewer than {} shards", text,
                                 planned_trials, shard.count));
  }
  return shard;
}

// A history campaign's checks (chaos/workload.h): clients alone, each fault one a history can
// strike, and its faults those of --nemesis when given (the table's row is the schedule's first).
void check_histories(const ChaosOptions& options, const chaos::Campaign& campaign) {
  if (!options.workload.history()) return;
  chaos::check_workload(options.workload);
  if (!campaign.strategies.empty() || campaign.clients.empty()) {
    throw UsageError(
        "--increments and --duration run histories of protocol clients: give --client NAME and no "
        "--strategies (or --strategies none)");
  }
  if (options.netns || !options.shard.empty()) throw UsageError("histories take no --netns or --shard");
  for (chaos::Fault fault : campaign.faults) {
    if (std::string_view why = chaos::history_refusal(fault); !why.empty()) {
      throw UsageError(fmt::format("--faults {}: no history's operation: {}", to_string(fault), why));
    }
  }
}

// What the flags ask for: the campaign, and the histories' --nemesis schedule if given.
struct ChaosPlan {
  chaos::Campaign campaign;
  std::optional<chaos::NemesisSchedule> nemesis;
};

// The campaign the flags ask for: --quick's strategies, faults and trials unless named;
// `--strategies none` (or '') runs no built-in strategy, for a campaign of clients alone. Histories
// run clients alone, 2 a cell unless --trials says.
ChaosPlan plan_of(const ChaosOptions& options) {
  std::vector<std::string> fault_names = options.faults;
  bool history = options.workload.history();
  std::optional<chaos::NemesisSchedule> nemesis;
  if (options.nemesis) {
    if (!history) throw UsageError("--nemesis schedules histories: give --increments K or --duration S");
    if (!fault_names.empty()) throw UsageError("--nemesis names the faults: no --faults beside it");
    nemesis = chaos::parse_schedule(*options.nemesis, options.workload.workers);
    chaos::check_schedule(*nemesis, options.workload);
    fault_names = {std::string(to_string(nemesis->steps.front().fault))};
  }
  std::vector<lab::Strategy> quick{lab::Strategy::ttl, lab::Strategy::fenced_retry, lab::Strategy::fenced_claim,
                                   lab::Strategy::pg_row_lock};
  std::vector<lab::Strategy> strategies =
      lab::parse_strategy_list(options.strategies, history         ? std::vector<lab::Strategy>{}
                                                   : options.quick ? quick
                                                                   : lab::all_strategies());
  if (options.quick && fault_names.empty()) fault_names = {"none", "pause"};
  std::vector<chaos::Fault> faults = fault_names.empty()
                                         ? (history ? chaos::history_faults() : chaos::all_faults())
                                         : parse_list<chaos::Fault>(fault_names, chaos::fault_from, "--faults", "fault",
                                                                    names_of(chaos::all_faults()));
  int trials = options.trials != 200 ? options.trials : history ? 2 : options.quick ? 20 : options.trials;
  chaos::Campaign campaign{strategies, clients_of(options), faults, trials, options.campaign.jobs};
  campaign.topology = options.campaign.topology;
  if (campaign.topology == chaos::Topology::cluster && options.netns)
    throw UsageError("--topology cluster runs its members on this host's loopback: no --netns beside it");
  check_histories(options, campaign);
  if (chaos::planned_trials(campaign) > chaos::kMaxTrialsARun) {
    throw UsageError(fmt::format("the campaign runs {} trials: at most {} a run", chaos::planned_trials(campaign),
                                 chaos::kMaxTrialsARun));
  }
  if (!options.shard.empty()) campaign.shard = shard_of(options.shard, chaos::planned_trials(campaign));
  return ChaosPlan{campaign, nemesis};
}

constexpr long kReplayAccount = 250'001;  // apart from the labs', the trials' and explore's

// --replay-order: one order of `rlock explore` as a trial of the one strategy, judged by the same
// checkers and kept as a run; its verdict, its log and the order its log recorded on stdout.
void replay_order(const ChaosOptions& options, const GlobalOptions& global) {
  if (!options.faults.empty() || !options.clients.empty() || !options.shard.empty() || options.netns || options.quick) {
    throw UsageError(
        "--replay-order runs one order of the built-in strategy it names: its tokens name its events, "
        "so no --faults, --client, --shard, --netns or --quick");
  }
  std::vector<lab::Strategy> strategies = lab::parse_strategy_list(options.strategies, {});
  if (strategies.size() != 1 || !strategy::gated(strategies.front())) {
    throw UsageError("--replay-order takes one --strategies of ttl, watchdog, fenced, fenced-retry, fenced-claim");
  }
  explore::OrderToReplay order = explore::order_to_replay(strategies.front(), *options.replay_order);
  lab::RunSetup lab = setup_to_change_data(global, "chaos", ServersChanged::redis_and_db);
  explore::ReplayedOrder replayed =
      explore::run_order_as_trial(order, explore::Servers{lab.redis, lab.conninfo, options.campaign.failover_port},
                                  lab.dir.root(), kReplayAccount, options.campaign.seed.value_or(random_seed()));
  explore::print_order_run(replayed.run, replayed.log_dir);
  fmt::print("recorded: {}\n", explore::recorded_order(lab::read_events(lab::LogDir(replayed.log_dir))));
  fmt::print("run: {} (rlock analyze DIR, rlock report DIR)\n", replayed.run_dir.string());
}

// A line on stderr for each client whose library rounds --ttl up: its locks outlive the TTL the
// built-in rows are judged at.
void warn_of_rounded_ttls(const chaos::Campaign& campaign, long ttl_ms) {
  for (const protocol::ClientSpec& client : campaign.clients) {
    long step = client.ttl_step_ms;
    if (ttl_ms % step == 0) continue;
    fmt::print(stderr,
               "chaos: warning: {}'s library counts a TTL in steps of {} ms: its locks live {} ms, not the --ttl {} "
               "ms asked (give --ttl {} to judge it at its own TTL)\n",
               client.name, step, (ttl_ms / step + 1) * step, ttl_ms, (ttl_ms / step + 1) * step);
  }
}

void chaos(const ChaosOptions& options, const GlobalOptions& global) {
  if (options.replay_order) return replay_order(options, global);
  check_own_ports(options.campaign);
  // Every argument read before a server is asked.
  ChaosPlan plan = plan_of(options);
  const chaos::Campaign& campaign = plan.campaign;
  warn_of_rounded_ttls(campaign, options.ttl_ms);
  if (options.netns) host::NetnsBridge::cleanup_leftovers();  // says so, in one line, when not root
  lab::RunSetup lab = setup_to_change_data(global, "chaos", ServersChanged::redis_and_db);
  chaos::ChaosSetup setup = campaign_setup(options.campaign, lab);
  setup.ttl = std::chrono::milliseconds(options.ttl_ms);
  setup.wait = options.wait;
  setup.netns = options.netns;
  if (options.workload.history()) setup.workload = options.workload;
  setup.nemesis = plan.nemesis;
  setup.run_dir = store::new_run_dir(setup.dir, setup.seed, campaign.shard);
  std::vector<checker::TrialResult> results = runner::run_campaign(campaign, setup);
  std::vector<checker::Cell> cells = checker::tabulate(campaign, results);
  checker::print_table(cells, setup);
  if (!options.json.empty()) checker::write_json(options.json, cells, campaign, setup);
  checker::write_json((setup.run_dir / "chaos.json").string(), cells, campaign, setup);
  fmt::print(stderr, "chaos: the run is stored in {} (rlock analyze DIR checks it again)\n", setup.run_dir.string());
  write_run_report(setup.run_dir, global, "chaos");
  runner::check_harness(results);
  checker::check_expected_safe(cells);
}

}  // namespace

void register_chaos(CLI::App& app, const GlobalOptions& global) {
  auto options = std::make_shared<ChaosOptions>();
  CLI::App* cmd = app.add_subcommand("chaos", "randomized trials of every strategy under faults, with checkers");
  cmd->add_option("--strategies", options->strategies, "comma-separated, or none: " + names_of(lab::all_strategies()))
      ->delimiter(',');
  cmd->add_option("--faults", options->faults, "comma-separated: " + names_of(chaos::all_faults()))->delimiter(',');
  cmd->add_option("--trials", options->trials, "trials a cell (strategy x fault)")
      ->check(util::in_range(1, chaos::kMaxTrialsACell))
      ->capture_default_str();
  cmd->add_option("--ttl", options->ttl_ms, "lock TTL in ms")
      ->check(util::in_range(chaos::kMinTtlMs, chaos::kMaxTtlMs))
      ->capture_default_str();
  add_campaign_options(*cmd, options->campaign);
  add_topology_options(*cmd, options->campaign);
  cmd->add_option("--wait", options->wait,
                  "how refused workers of the single-Redis strategies wait: poll (every 10 ms) , notify "
                  "(until the release is announced, 10 ms at most), queue (in turn, woken at the release) or handoff "
                  "(in turn, handed the lock by the release)")
      ->transform(util::by_name(wait_modes_by_name()))
      ->type_name(util::names_of(wait_modes_by_name()))
      ->default_str("poll");
  cmd->add_flag("--quick", options->quick,
                "ttl, fenced-retry, fenced-claim and pg-row-lock under none and pause, 20 trials a cell");
  cmd->add_option("--json", options->json, "also write the table as JSON to this file");
  cmd->add_option("--client", options->clients,
                  "NAME=COMMAND: also judge this lock client (docs/clients.md); NAME@3=COMMAND gives it three servers; "
                  "a bare NAME runs a shipped adapter (rlock clients)");
  cmd->add_option("--client-safe", options->safe_clients,
                  "NAME: the client is expected safe (an anomaly fails the run)");
  cmd->add_flag("--netns", options->netns,
                "as root: each job's workers and a Redis of its own in network namespaces, partition a real one "
                "(faults none and partition; docs/chaos.md)");
  cmd->add_option("--shard", options->shard,
                  "K/N: run only the K-th of N disjoint parts of the campaign's trials (K from 1); `rlock merge` "
                  "makes one run of the N (docs/scale.md)");
  add_workload_options(*cmd, options->workload);
  cmd->add_option("--nemesis", options->nemesis,
                  "a history's schedule: FAULT[:WORKER] [at T|every T [from T]|on STEP[#N]] [for T]; ... "
                  "(default: each fault every 2 to 4 TTLs)");
  cmd->add_option("--replay-order", options->replay_order,
                  "ORDER or FILE: run this order of `rlock explore` (its tokens, or a file holding them) as one trial "
                  "of the one --strategies strategy (docs/chaos.md)");
  cmd->callback([options, &global] { chaos(*options, global); });
}

}  // namespace rlock::cli
