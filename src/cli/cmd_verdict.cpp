// rlock verdict --expect N [--account N]: the final row and one verdict line: was an update lost?
#include <memory>

#include <fmt/format.h>

#include "account_store.h"
#include "commands.h"

namespace rlock::cli {
namespace {

struct VerdictOptions {
  long long expect = 0;
  long account = 1;
};

void verdict(const VerdictOptions& options, const GlobalOptions& global) {
  AccountStore store(global.db);
  AccountRow row = store.read(options.account);
  fmt::print("account {}: balance {}, fence {}\n", options.account, row.balance, row.fence);
  if (row.balance == options.expect) {
    fmt::print("verdict: final balance {}, expected {}: no update lost\n", row.balance, options.expect);
  } else {
    fmt::print("verdict: final balance {}, expected {}: LOST UPDATE ({} missing)\n", row.balance, options.expect,
               options.expect - row.balance);
  }
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
