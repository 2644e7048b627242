// rlock verdict --expect N [--account N]: the final row and one verdict line: was an update lost?
// The run's events, when there are any, tell which workers failed before adding their amount.
#include <memory>

#include <fmt/format.h>

#include "bank/account_store.h"
#include "cli/commands.h"
#include "lab/run_log.h"
#include "lab/verdict.h"
#include "rlock/error.h"

namespace rlock::cli {
namespace {

struct VerdictOptions {
  long long expect = 0;
  long account = 1;
};

void verdict(const VerdictOptions& options, const GlobalOptions& global) {
  lab::RunSetup setup = global.setup();
  bank::AccountStore store(setup.conninfo);
  bank::AccountRow row = store.read(options.account);
  std::vector<lab::Event> events;
  try {
    events = lab::read_events(setup.dir);
  } catch (const Error&) {
    // no run recorded here: the balance alone decides
  }
  fmt::print("account {}: balance {}, fence {}\n", options.account, row.balance, row.fence);
  fmt::print("{}\n", lab::balance_verdict(row.balance, options.expect, events).line());
}

}  // namespace

void register_verdict(CLI::App& app, const GlobalOptions& global) {
  auto options = std::make_shared<VerdictOptions>();
  CLI::App* cmd = app.add_subcommand("verdict", "print the account's final row and whether an update was lost");
  cmd->add_option("--expect", options->expect, "the balance a safe lock would have left")->required();
  cmd->add_option("--account", options->account, "account id")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->callback([options, &global] { verdict(*options, global); });
}

}  // namespace rlock::cli
