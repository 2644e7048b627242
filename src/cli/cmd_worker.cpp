// rlock worker NAME AMOUNT [--ttl MS] [--delay S] [--pause S] [--watchdog] [--fenced] [--retry]
// [--check-before-write] [--min-redis-uptime MS] [--wait-replicas N [--wait-timeout MS]]
// [--claim-fence] [--pg atomic|row-lock|advisory] [--redlock URL,URL,URL...] [--wait poll|notify|queue]
// [--account N] [--retry-every MS]: the article's worker (see lab_worker.h), running the strategy its flags name.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.h"
#include "lab/lab_worker.h"
#include "lab/strategy.h"
#include "rlock/error.h"

namespace rlock::cli {
namespace {

struct WorkerOptions {
  std::string name;
  long long amount = 0;
  long ttl_ms = 2000;
  double delay_seconds = 0;
  double pause_seconds = 0;
  long account = 1;
  long retry_every_ms = 100;
  bool watchdog = false;
  bool fenced = false;
  bool retry = false;
  bool claim_fence = false;
  bool check_before_write = false;
  long min_uptime_ms = 0;
  int wait_replicas = 0;
  long wait_timeout_ms = 100;
  std::optional<Strategy> pg;
  WaitMode wait = WaitMode::poll;
  std::vector<std::string> redlock_urls;
};

// The strategy the flags name, the one place flags become a Strategy. A combination that names
// none (two of --watchdog, --check-before-write and --fenced; --claim-fence without --retry) is a
// usage error.
Strategy strategy_of(const WorkerOptions& o) {
  if (o.pg) return *o.pg;
  if (!o.redlock_urls.empty()) return Strategy::redlock;
  if (int{o.watchdog} + int{o.check_before_write} + int{o.fenced} > 1) {
    throw UsageError("--watchdog, --check-before-write and --fenced are strategies of their own: take one");
  }
  if (o.watchdog) return Strategy::watchdog;
  if (o.check_before_write) return Strategy::check_before_write;
  if (!o.fenced) return Strategy::ttl;
  if (o.claim_fence && !o.retry) throw UsageError("--claim-fence goes with --retry (the strategy fenced-claim)");
  if (o.claim_fence) return Strategy::fenced_claim;
  return o.retry ? Strategy::fenced_retry : Strategy::fenced;
}

WorkerPlan plan_of(const WorkerOptions& o) {
  WorkerPlan plan;
  for (const std::string& url : o.redlock_urls) plan.redlock.push_back(RedisAddress::parse(url));
  if (!plan.redlock.empty() && plan.redlock.size() < 3) {
    throw UsageError(fmt::format("--redlock needs at least 3 servers, got {}", plan.redlock.size()));
  }
  plan.strategy = strategy_of(o);
  plan.name = o.name;
  plan.amount = o.amount;
  plan.account = o.account;
  plan.ttl = std::chrono::milliseconds(o.ttl_ms);
  plan.delay_seconds = o.delay_seconds;
  plan.pause_seconds = o.pause_seconds;
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
  cmd->add_option("--ttl", o.ttl_ms, "lock TTL in milliseconds")->check(CLI::Range(1L, 86'400'000L))->capture_default_str();
  cmd->add_option("--delay", o.delay_seconds, "seconds after the run's start before acquiring")
      ->check(CLI::Range(0.0, 3600.0))
      ->capture_default_str();
  cmd->add_option("--pause", o.pause_seconds, "seconds to pause after the first read (a GC pause)")
      ->check(CLI::Range(0.0, 3600.0))
      ->capture_default_str();
  cmd->add_option("--account", o.account, "account id")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--retry-every", o.retry_every_ms, "ms a refused worker waits before asking again")
      ->check(CLI::Range(1L, 60'000L))
      ->capture_default_str();
}

// The Redis lock's strategies and its guards (the restart guard, WAIT).
void add_redis_lock_options(CLI::App* cmd, WorkerOptions& o) {
  cmd->add_flag("--watchdog", o.watchdog, "extend the lock every TTL/3 from a thread");
  CLI::Option* fenced = cmd->add_flag("--fenced", o.fenced, "take a fencing token; PostgreSQL rejects stale writes");
  cmd->add_flag("--retry", o.retry, "after a rejected fenced write, start again from the acquisition")->needs(fenced);
  cmd->add_flag("--claim-fence", o.claim_fence,
                "claim the fencing token at the read (SET fence), write only while it is still ours")
      ->needs(fenced);
  cmd->add_flag("--check-before-write", o.check_before_write,
                "check the lock is still held right after the read (the pause falls after the check)");
  cmd->add_option("--min-redis-uptime", o.min_uptime_ms,
                  "grant no lock until Redis has been up this many ms (a little more than the longest TTL)")
      ->check(CLI::Range(0L, 86'400'000L));
  CLI::Option* wait = cmd->add_option("--wait-replicas", o.wait_replicas,
                                      "after acquiring, WAIT for N replicas; fewer: release, not acquired")
                          ->check(CLI::Range(0, 64));
  cmd->add_option("--wait-timeout", o.wait_timeout_ms, "WAIT's timeout in ms")
      ->check(CLI::Range(1L, 60'000L))
      ->needs(wait)
      ->capture_default_str();
}

// The strategies without the one Redis lock (PostgreSQL alone, Redlock), and how a refused worker waits.
void add_other_strategies(CLI::App* cmd, WorkerOptions& o) {
  cmd->add_option("--pg", o.pg, "no Redis: add in PostgreSQL (atomic UPDATE, row lock, advisory lock)")
      ->transform(CLI::CheckedTransformer(std::map<std::string, Strategy>{{"atomic", Strategy::pg_atomic},
                                                                          {"row-lock", Strategy::pg_row_lock},
                                                                          {"advisory", Strategy::pg_advisory}}))
      ->excludes("--fenced")
      ->excludes("--watchdog")
      ->excludes("--check-before-write");
  cmd->add_option("--wait", o.wait,
                  "how a refused worker waits: poll (the default: 0.1 s) , notify (until the release is "
                  "announced, 0.1 s at most) or queue (in turn, woken when first in the lock's queue)")
      ->transform(CLI::CheckedTransformer(wait_modes_by_name()))
      ->excludes("--pg");
  cmd->add_option("--redlock", o.redlock_urls,
                  "comma-separated URLs of 3 or more independent Redis servers: Redlock instead of --redis")
      ->delimiter(',')
      ->excludes("--fenced")
      ->excludes("--watchdog")
      ->excludes("--check-before-write")
      ->excludes("--pg")
      ->excludes("--min-redis-uptime")
      ->excludes("--wait-replicas")
      ->excludes("--wait");
}

}  // namespace

void register_worker(CLI::App& app, const GlobalOptions& global) {
  auto options = std::make_shared<WorkerOptions>();
  CLI::App* cmd = app.add_subcommand("worker", "acquire the lock, read, (pause), write balance + AMOUNT, release");
  add_run_options(cmd, *options);
  add_redis_lock_options(cmd, *options);
  add_other_strategies(cmd, *options);
  cmd->callback([options, &global] { run_worker(plan_of(*options), global.setup()); });
}

}  // namespace rlock::cli
