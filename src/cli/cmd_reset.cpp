// rlock reset [--start-in S=1] [--account N=1]: a new run. Balance back to 100 and fence to 0, lock
// and fence keys deleted, the data directory's previous run cleared, start time recorded.
#include <memory>

#include <fmt/format.h>

#include "bank/account_store.h"
#include "cli/commands.h"
#include "cli/named_servers.h"
#include "lab/run_log.h"
#include "rlock/lock_key.h"
#include "rlock/redis_connection.h"
#include "util/option_checks.h"

namespace rlock::cli {
namespace {

struct ResetOptions {
  double start_in = 1.0;
  long account = 1;
};

void reset(const ResetOptions& options, const GlobalOptions& global) {
  lab::RunSetup setup = setup_to_change_data(global, "reset", ServersChanged::redis_and_db);
  // Connect to both before touching anything, so an unreachable server leaves the last run intact.
  RedisConnection redis(setup.redis);
  bank::AccountStore store(setup.conninfo);
  store.reset(options.account);
  LockKey key = LockKey::for_account(options.account);
  redis.checked({"DEL", key.lock, key.fence_counter});
  setup.dir.start_new_run(lab::wall_seconds() + options.start_in);
  fmt::print("reset: account {} balance {} fence 0, lock free, run starts in {:.1f}s in {}\n", options.account,
             bank::AccountStore::kInitialBalance, options.start_in, setup.dir.root().string());
}

}  // namespace

void register_reset(CLI::App& app, const GlobalOptions& global) {
  auto options = std::make_shared<ResetOptions>();
  CLI::App* cmd = app.add_subcommand("reset", "start a new run: balance 100, fence 0, lock free, log cleared");
  cmd->add_option("--start-in", options->start_in, "seconds from now to the run's start")
      ->check(util::in_range(0.0, 3600.0))
      ->capture_default_str();
  cmd->add_option("--account", options->account, "account id")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->callback([options, &global] { reset(*options, global); });
}

}  // namespace rlock::cli
