// rlock worker NAME AMOUNT [--ttl MS] [--delay S] [--pause S] [--watchdog] [--fenced] [--retry]
// [--check-before-write] [--min-redis-uptime MS] [--wait-replicas N [--wait-timeout MS]]
// [--claim-fence] [--pg atomic|row-lock|advisory] [--redlock URL,URL,URL...] [--wait poll|notify]
// [--account N]: the article's worker (see lab_worker.h).
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.h"
#include "rlock/error.h"
#include "lab/lab_worker.h"

namespace rlock::cli {

void register_worker(CLI::App& app, const GlobalOptions& global) {
  auto plan = std::make_shared<WorkerPlan>();
  auto ttl_ms = std::make_shared<long>(2000);
  CLI::App* cmd = app.add_subcommand("worker", "acquire the lock, read, (pause), write balance + AMOUNT, release");
  cmd->add_option("NAME", plan->name, "worker name (letters, digits, _ and -)")
      ->required()
      ->check(CLI::Validator(
          [](const std::string& name) -> std::string {
            bool ok = !name.empty() && name.size() <= 32 && name != "host" &&
                      name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") ==
                          std::string::npos;
            return ok ? "" : "NAME must be 1 to 32 letters, digits, _ or -, and not 'host'";
          },
          "NAME"));
  cmd->add_option("AMOUNT", plan->amount, "amount to add to the balance")->required();
  cmd->add_option("--ttl", *ttl_ms, "lock TTL in milliseconds")->check(CLI::Range(1L, 86'400'000L))->capture_default_str();
  cmd->add_option("--delay", plan->delay_seconds, "seconds after the run's start before acquiring")
      ->check(CLI::Range(0.0, 3600.0))
      ->capture_default_str();
  cmd->add_option("--pause", plan->pause_seconds, "seconds to pause after the first read (a GC pause)")
      ->check(CLI::Range(0.0, 3600.0))
      ->capture_default_str();
  cmd->add_option("--account", plan->account, "account id")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_flag("--watchdog", plan->watchdog, "extend the lock every TTL/3 from a thread");
  CLI::Option* fenced = cmd->add_flag("--fenced", plan->fenced, "take a fencing token; PostgreSQL rejects stale writes");
  cmd->add_flag("--retry", plan->retry, "after a rejected fenced write, start again from the acquisition")->needs(fenced);
  cmd->add_flag("--claim-fence", plan->claim_fence,
                "claim the fencing token at the read (SET fence), write only while it is still ours")
      ->needs(fenced);
  cmd->add_flag("--check-before-write", plan->check_before_write,
                "check the lock is still held right after the read (the pause falls after the check)");
  auto min_uptime_ms = std::make_shared<long>(0);
  auto wait_timeout_ms = std::make_shared<long>(100);
  cmd->add_option("--min-redis-uptime", *min_uptime_ms,
                  "grant no lock until Redis has been up this many ms (a little more than the longest TTL)")
      ->check(CLI::Range(0L, 86'400'000L));
  CLI::Option* wait = cmd->add_option("--wait-replicas", plan->lock_options.wait_replicas,
                                      "after acquiring, WAIT for N replicas; fewer: release, not acquired")
                          ->check(CLI::Range(0, 64));
  cmd->add_option("--wait-timeout", *wait_timeout_ms, "WAIT's timeout in ms")
      ->check(CLI::Range(1L, 60'000L))
      ->needs(wait)
      ->capture_default_str();
  cmd->add_option("--pg", plan->pg, "no Redis: add in PostgreSQL (atomic UPDATE, row lock, advisory lock)")
      ->transform(CLI::CheckedTransformer(std::map<std::string, PgStrategy>{{"atomic", PgStrategy::atomic},
                                                                            {"row-lock", PgStrategy::row_lock},
                                                                            {"advisory", PgStrategy::advisory}}))
      ->excludes(fenced)
      ->excludes("--watchdog")
      ->excludes("--check-before-write");
  cmd->add_option("--wait", plan->wait,
                  "how a refused worker waits: poll (the default: 0.1 s) or notify (until the release is "
                  "announced, 0.1 s at most)")
      ->transform(CLI::CheckedTransformer(wait_modes_by_name()))
      ->excludes("--pg");
  auto redlock_urls = std::make_shared<std::vector<std::string>>();
  cmd->add_option("--redlock", *redlock_urls,
                  "comma-separated URLs of 3 or more independent Redis servers: Redlock instead of --redis")
      ->delimiter(',')
      ->excludes(fenced)
      ->excludes("--watchdog")
      ->excludes("--check-before-write")
      ->excludes("--pg")
      ->excludes("--min-redis-uptime")
      ->excludes(wait)
      ->excludes("--wait");
  cmd->callback([plan, ttl_ms, min_uptime_ms, wait_timeout_ms, redlock_urls, &global] {
    for (const std::string& url : *redlock_urls) plan->redlock.push_back(RedisAddress::parse(url));
    if (!plan->redlock.empty() && plan->redlock.size() < 3) {
      throw UsageError(fmt::format("--redlock needs at least 3 servers, got {}", plan->redlock.size()));
    }
    plan->ttl = std::chrono::milliseconds(*ttl_ms);
    plan->lock_options.min_redis_uptime = std::chrono::milliseconds(*min_uptime_ms);
    plan->lock_options.wait_timeout = std::chrono::milliseconds(*wait_timeout_ms);
    run_worker(*plan, global.setup());
  });
}

}  // namespace rlock::cli
