// rlock worker NAME AMOUNT [--ttl MS] [--delay S] [--pause S] [--watchdog] [--fenced] [--retry]
// [--check-before-write] [--min-redis-uptime MS] [--wait-replicas N [--wait-timeout MS]]
// [--claim-fence] [--pg atomic|row-lock|advisory] [--redlock URL,URL,URL...] [--wait poll|notify|queue|handoff]
// [--account N] [--retry-every MS]: the article's worker (see strategy/worker.h), running the strategy its flags name.
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.h"
#include "lab/strategy.h"
#include "lab/worker_flags.h"
#include "rlock/error.h"
#include "strategy/worker.h"
#include "util/option_checks.h"

namespace rlock::cli {
namespace {

struct WorkerOptions {
  std::string name;
  long long amount = 0;
  long ttl_ms = 2000;
  double delay_seconds = 0;
  double work_seconds = 0;
  long account = 1;
  long retry_every_ms = 100;
  lab::StrategyFlags strategy;  // worker_flags.h
  long min_uptime_ms = 0;
  int wait_replicas = 0;
  long wait_timeout_ms = 100;
  WaitMode wait = WaitMode::poll;
};

lab::WorkerPlan plan_of(const WorkerOptions& o) {
  lab::WorkerPlan plan;
  for (const std::string& url : o.strategy.redlock) plan.redlock.push_back(RedisAddress::parse(url));
  if (!plan.redlock.empty() && plan.redlock.size() < 3) {
    throw UsageError(fmt::format("--redlock needs at least 3 servers, got {}", plan.redlock.size()));
  }
  plan.strategy = lab::strategy_of(o.strategy);
  plan.name = o.name;
  plan.amount = o.amount;
  plan.account = o.account;
  plan.ttl = std::chrono::milliseconds(o.ttl_ms);
  plan.delay_seconds = o.delay_seconds;
  plan.work_seconds = o.work_seconds;
  plan.wait = o.wait;
  plan.busy_retry = std::chrono::milliseconds(o.retry_every_ms);
  plan.lock_options.min_redis_uptime = std::chrono::milliseconds(o.min_uptime_ms);
  plan.lock_options.wait_replicas = o.wait_replicas;
  plan.lock_options.wait_timeout = std::chrono::milliseconds(o.wait_timeout_ms);
  return plan;
}

CLI::Validator worker_name() {
  return CLI::Validator(
      [](const std::string& name) -> std::string {
        bool ok = !name.empty() && name.size() <= 32 && name != "host" &&
                  name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") ==
                      std::string::npos;
        return ok ? "" : "NAME must be 1 to 32 letters, digits, _ or -, and not 'host'";
      },
      "NAME");
}

// NAME, AMOUNT and when, how long, on which account.
void add_run_options(CLI::App* cmd, WorkerOptions& o) {
  cmd->add_option("NAME", o.name, "worker name (letters, digits, _ and -)")->required()->check(worker_name());
  cmd->add_option("AMOUNT", o.amount, "amount to add to the balance")->required();
  cmd->add_option("--ttl", o.ttl_ms, "lock TTL in milliseconds")
      ->check(util::in_range(1L, 86'400'000L))
      ->capture_default_str();
  cmd->add_option("--delay", o.delay_seconds, "seconds after the run's start before acquiring")
      ->check(util::in_range(0.0, 3600.0))
      ->capture_default_str();
  cmd->add_option("--pause", o.work_seconds, "seconds to pause after the first read (a GC pause)")
      ->check(util::in_range(0.0, 3600.0))
      ->capture_default_str();
  cmd->add_option("--account", o.account, "account id")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--retry-every", o.retry_every_ms, "ms a refused worker waits before asking again")
      ->check(util::in_range(1L, 60'000L))
      ->capture_default_str();
}

// The Redis lock's guards (the restart guard, WAIT) and how a refused worker waits: none of them
// with Redlock, and no waiting in PostgreSQL.
void add_guards(CLI::App* cmd, WorkerOptions& o) {
  cmd->add_option("--min-redis-uptime", o.min_uptime_ms,
                  "grant no lock until Redis has been up this many ms (a little more than the longest TTL)")
      ->check(util::in_range(0L, 86'400'000L))
      ->excludes("--redlock");
  CLI::Option* wait = cmd->add_option("--wait-replicas", o.wait_replicas,
                                      "after acquiring, WAIT for N replicas; fewer: release, not acquired")
                          ->check(util::in_range(0, 64))
                          ->excludes("--redlock");
  cmd->add_option("--wait-timeout", o.wait_timeout_ms, "WAIT's timeout in ms")
      ->check(util::in_range(1L, 60'000L))
      ->needs(wait)
      ->capture_default_str();
  cmd->add_option("--wait", o.wait,
                  "how a refused worker waits: poll (the default: 0.1 s) , notify (until the release is "
                  "announced, 0.1 s at most), queue (in turn, woken when first in the lock's queue) or handoff (in "
                  "turn, woken holding the lock, which the release handed over)")
      ->transform(util::by_name(wait_modes_by_name()))
      ->type_name(util::names_of(wait_modes_by_name()))
      ->default_str("poll")
      ->excludes("--pg")
      ->excludes("--redlock");
}

}  // namespace

void register_worker(CLI::App& app, const GlobalOptions& global) {
  auto options = std::make_shared<WorkerOptions>();
  CLI::App* cmd = app.add_subcommand("worker", "acquire the lock, read, (pause), write balance + AMOUNT, release");
  add_run_options(cmd, *options);
  lab::add_strategy_flags(*cmd, options->strategy);
  add_guards(cmd, *options);
  cmd->callback([options, &global] { strategy::run_worker(plan_of(*options), global.setup()); });
}

}  // namespace rlock::cli
