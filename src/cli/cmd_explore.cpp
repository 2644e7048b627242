// rlock explore --strategy S[,S...] [--workers N] [--events LIST] [--bound K] [--jobs J] [--failover-port P]
// [--replay ORDER] [--replay-trail FILE] [--json FILE] [--run-dir DIR] | --order-of DIR: every order of a small
// world's steps and events on the real servers (docs/explore.md), judged by chaos's checkers; the
// number of orders, of losing ones, and the shortest losing order with its timeline; the walk kept
// as a run that `rlock analyze` and `rlock report` read. --replay and --replay-trail run one order
// instead; --order-of prints the order a kept run took, as its log recorded it.
#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "chaos/campaign.h"
#include "cli/commands.h"
#include "cli/named_servers.h"
#include "explore/explorer.h"
#include "explore/order_trial.h"
#include "explore/stage.h"
#include "explore/summary.h"
#include "explore/walk_record.h"
#include "explore/world.h"
#include "lab/log_dir.h"
#include "lab/run_log.h"
#include "lab/strategy_list.h"
#include "results/file_format.h"
#include "rlock/error.h"
#include "strategy/worker.h"
#include "util/option_checks.h"
#include "util/printable.h"

namespace rlock::cli {
namespace {

struct ExploreOptions {
  std::vector<std::string> strategies;
  int workers = 2;
  std::vector<std::string> events{"expiry", "pause"};
  int bound = 2;
  std::optional<std::string> replay;
  std::optional<std::string> replay_trail;
  std::string json;
  std::string run_dir;
  std::optional<std::string> order_of;  // a run's directory
  long account = 250'000;               // apart from the labs' (1) and chaos's (from 100000)
  int jobs = 2;
  int failover_port = explore::Servers{}.failover_port;
};

constexpr int kProbes = 16;  // random orders for the estimate
constexpr int kMaxJobs = 8;
constexpr std::uint64_t kProbeSeed = 2026;

std::vector<explore::World> worlds_of(const ExploreOptions& options) {
  std::set<explore::WorldEvent> events;
  for (const std::string& name : options.events) {
    if (name == "none") {
      if (options.events.size() > 1) throw UsageError("--events: none stands alone");
      continue;
    }
    std::optional<explore::WorldEvent> event = explore::world_event_from(name);
    if (!event) {
      throw UsageError(
          fmt::format("unknown event '{}' (known: expiry, pause, restart, failover, none)", util::printable(name)));
    }
    if (!events.insert(*event).second) throw UsageError(fmt::format("--events names '{}' twice", name));
  }
  std::vector<lab::Strategy> gated;
  for (lab::Strategy strategy : lab::all_strategies()) {
    if (strategy::gated(strategy)) gated.push_back(strategy);
  }
  std::vector<explore::World> worlds;
  for (lab::Strategy strategy : lab::parse_strategy_list(options.strategies, {}, "--strategy", gated)) {
    worlds.push_back(explore::World{strategy, options.workers, events, options.bound});
  }
  if (worlds.empty()) throw UsageError("--strategy names no strategy");
  if (worlds.size() > 1 && (!options.run_dir.empty() || options.replay || options.replay_trail)) {
    throw UsageError("--run-dir, --replay and --replay-trail take one strategy");
  }
  if (!options.run_dir.empty() && std::filesystem::exists(options.run_dir)) {
    throw UsageError(fmt::format("--run-dir {}: already there; name a new directory", options.run_dir));
  }
  return worlds;
}

// Job 0's stage is explore/stage, on the account given; job J's explore/stage-J, on the J-th next.
std::unique_ptr<explore::Stage> stage_for(const explore::World& world, const lab::RunSetup& lab, long account,
                                          int failover_port, int job = 0) {
  std::string name = job == 0 ? "stage" : fmt::format("stage-{}", job);
  return std::make_unique<explore::Stage>(world, explore::Servers{lab.redis, lab.conninfo, failover_port},
                                          lab::LogDir(lab.dir.root() / "explore" / name), account + job);
}

// The stages a walk runs on at once: one for a world that restarts or fails over its Redis, which
// every stage shares.
int jobs_for(const ExploreOptions& options, const explore::World& world) {
  bool redis_stops = world.has(explore::WorldEvent::restart) || world.has(explore::WorldEvent::failover);
  return redis_stops ? 1 : options.jobs;
}

// The order --replay or --replay-trail gives, read before any server is asked.
explore::Order order_to_replay(const ExploreOptions& options, const explore::World& world) {
  return options.replay ? explore::parse_order(*options.replay, world.workers)
                        : explore::read_trail(*options.replay_trail, world.workers);
}

void replay(const ExploreOptions& options, const explore::World& world, const explore::Order& order,
            const lab::RunSetup& lab) {
  std::unique_ptr<explore::Stage> stage = stage_for(world, lab, options.account, options.failover_port);
  std::size_t added = 0;
  explore::OrderRun run = explore::replay(*stage, order, 0, added);
  lab::write_events(stage->dir(), run.events, lab::Lang::en);
  explore::steps_as_seconds(stage->dir(), run);
  if (added > 0) fmt::print("the order left steps undone: completed with its last {} moves\n", added);
  explore::print_order_run(run, stage->dir().root());
}

explore::Explored walk(const ExploreOptions& options, const explore::World& world, const lab::RunSetup& lab) {
  std::unique_ptr<explore::Stage> stage = stage_for(world, lab, options.account, options.failover_port);
  explore::Estimate estimate = explore::estimate_orders(*stage, kProbes, kProbeSeed);
  if (estimate.orders > chaos::kMaxTrialsACell) {
    throw UsageError(fmt::format(
        "{} with events {} and bound {} has about {:.0f} orders (estimated from {} random ones), more than the {} a "
        "walk runs: lower --bound or name fewer --events",
        lab::to_string(world.strategy), explore::events_text(world), world.bound, estimate.orders, kProbes,
        chaos::kMaxTrialsACell));
  }
  fmt::print(stderr, "explore: {}: about {:.0f} orders, about {:.0f} s\n", lab::to_string(world.strategy),
             estimate.orders, estimate.orders * estimate.ms_per_order / 1000);
  std::filesystem::path explore_dir = lab.dir.root() / "explore";
  explore::WalkRecord record(world, explore::Servers{lab.redis, lab.conninfo, options.failover_port}, explore_dir,
                             kProbeSeed, options.run_dir);
  std::vector<std::unique_ptr<explore::Stage>> stages;
  stages.push_back(std::move(stage));
  for (int job = 1; job < jobs_for(options, world); ++job) {
    stages.push_back(stage_for(world, lab, options.account, options.failover_port, job));
  }
  std::vector<explore::Stage*> walking;
  for (auto& s : stages) walking.push_back(s.get());
  explore::Exploration walked = explore::explore_all(walking, [&](const explore::OrderRun& run) { record.add(run); });
  std::filesystem::path shortest = record.finish(walked);
  return explore::Explored{world, estimate, std::move(walked), record.run_dir(), shortest};
}

void explore(const ExploreOptions& options, const GlobalOptions& global) {
  if (options.order_of) {
    if (!options.strategies.empty() || options.replay || options.replay_trail || !options.json.empty()) {
      throw UsageError("--order-of reads a run's log: no --strategy, --replay, --replay-trail or --json");
    }
    fmt::print("{}\n", explore::recorded_order(lab::read_events(lab::LogDir(*options.order_of))));
    return;
  }
  if (options.replay && options.replay_trail) throw UsageError("--replay and --replay-trail: give one order");
  bool replaying = options.replay || options.replay_trail;
  if (replaying && !options.json.empty()) {
    throw UsageError("--json writes what a walk found, and --replay runs one order: give one of them");
  }
  std::vector<explore::World> worlds = worlds_of(options);
  std::optional<explore::Order> order;
  if (replaying) order = order_to_replay(options, worlds.front());
  lab::RunSetup lab = setup_to_change_data(global, "explore", ServersChanged::redis_and_db);
  if (order) return replay(options, worlds.front(), *order, lab);
  std::vector<explore::Explored> walks;
  for (const explore::World& world : worlds) {
    walks.push_back(walk(options, world, lab));
    explore::print_walk(walks.back());
  }
  if (!options.json.empty()) results::write_json_file(options.json, explore::explore_json(walks));
}

}  // namespace

void register_explore(CLI::App& app, const GlobalOptions& global) {
  auto options = std::make_shared<ExploreOptions>();
  CLI::App* cmd = app.add_subcommand(
      "explore", "run every order of a small world's steps and events on the real servers (docs/explore.md)");
  cmd->add_option("--strategy", options->strategies,
                  "comma-separated: ttl, watchdog, fenced, fenced-retry, fenced-claim")
      ->delimiter(',');
  cmd->add_option("--workers", options->workers, "workers, each making one increment")
      ->check(util::in_range(1, explore::kMaxWorkers))
      ->capture_default_str();
  cmd->add_option("--events", options->events, "comma-separated, or none: expiry, pause, restart, failover")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--bound", options->bound,
                  "K, per worker: refused acquisitions asked again, watchdog extensions, fenced-loop restarts")
      ->check(util::in_range(0, explore::kMaxBound))
      ->capture_default_str();
  cmd->add_option("--account", options->account,
                  "the account and lock the orders use (and the next ones, a job each); two walks at once need "
                  "accounts apart")
      ->check(util::in_range(1L, 2'000'000'000L))
      ->capture_default_str();
  cmd->add_option("--jobs", options->jobs,
                  "orders run at once, each job on connections and an account of its own (--account and the next "
                  "ones); 1 with the restart or failover event")
      ->check(util::in_range(1, kMaxJobs))
      ->capture_default_str();
  cmd->add_option("--failover-port", options->failover_port,
                  "with the failover event, the orders run on a primary and a replica of their own on 127.0.0.1, "
                  "this port and the next")
      ->check(util::in_range(chaos::kMinOwnPort, chaos::kMaxOwnPort))
      ->capture_default_str();
  cmd->add_option("--replay", options->replay, "ORDER: run this one order (its tokens, space-separated)");
  cmd->add_option("--replay-trail", options->replay_trail,
                  "FILE: run the order of a spin trail's replay output (its STEP lines)");
  cmd->add_option("--json", options->json, "also write what each walk found as JSON to this file");
  cmd->add_option("--order-of", options->order_of,
                  "DIR: print the order a run took (a kept chaos trial's directory, a data directory) as its log "
                  "recorded it: the workers' steps and the nemesis's operations, as tokens");
  cmd->add_option("--run-dir", options->run_dir,
                  "DIR: keep the walk's run here (default: explore/runs/ in the data directory), one strategy");
  cmd->callback([options, &global] { explore(*options, global); });
}

}  // namespace rlock::cli
