// rlock client --strategy S [--wait MODE]: a built-in Redis strategy as a protocol client (docs/clients.md), for
// `rlock chaos --client NAME=COMMAND`; its cells beside the built-in ones are the protocol's
// conformance test, and with --wait its hand-off is rlock's own through the protocol (rlock bench --handoff-client).
// Speaks on stdin and stdout; exit 0 when the harness closes stdin.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "lab/strategy.h"
#include "protocol/strategy_client.h"
#include "util/option_checks.h"

namespace rlock::cli {
namespace {

lab::Strategy strategy_named(const std::string& name) {
  std::optional<lab::Strategy> strategy = lab::strategy_from(name);
  if (!strategy) {
    std::string known;
    for (lab::Strategy s : lab::all_strategies()) {
      if (!lab::in_postgres(s)) known += (known.empty() ? "" : ", ") + std::string(lab::to_string(s));
    }
    throw UsageError(fmt::format("unknown strategy '{}' (known: {})", name, known));
  }
  protocol::check_client_strategy(*strategy);
  return *strategy;
}

}  // namespace

void register_client(CLI::App& app, const GlobalOptions&) {
  auto strategy = std::make_shared<std::string>();
  auto wait = std::make_shared<WaitMode>(WaitMode::poll);
  CLI::App* cmd = app.add_subcommand("client", "a built-in strategy as a protocol client, for rlock chaos --client");
  cmd->add_option("--strategy", *strategy,
                  "ttl, watchdog, check-before-write, fenced, fenced-retry, fenced-claim or redlock")
      ->required();
  cmd->add_option("--wait", *wait, "how a refused attempt waits: poll, notify, queue or handoff (not for redlock)")
      ->transform(util::by_name(wait_modes_by_name()))
      ->type_name(util::names_of(wait_modes_by_name()))
      ->default_str("poll");
  cmd->callback(
      [strategy, wait] { protocol::run_strategy_client(strategy_named(*strategy), *wait, std::cin, std::cout); });
}

}  // namespace rlock::cli
