// rlock client --strategy S [--wait MODE]: a built-in Redis strategy as a protocol client (docs/clients.md), for
// `rlock chaos --client NAME=COMMAND`; its cells beside the built-in ones are the protocol's
// conformance test, and with --wait its hand-off is rlock's own through the protocol (rlock bench --handoff-client).
// Speaks on stdin and stdout; exit 0 when the harness closes stdin.
// rlock client --check COMMAND [--ttl MS] [--start-limit S]: a client of the user's checked against the
// protocol's rules before a campaign (protocol/conformance.h), given --redis alone: a line a step passed, a
// line a rule broken on stdout, exit 1 when one was.
#include <algorithm>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "host/temp_dir.h"
#include "lab/strategy.h"
#include "protocol/client_catalogue.h"
#include "protocol/conformance.h"
#include "protocol/strategy_client.h"
#include "rlock/error.h"
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

struct CheckOptions {
  std::string command;
  long ttl_ms = 1000;
  int start_limit_s = 60;
};

// --check's command: a shipped adapter's, given its catalogue name (NAME or NAME@V), or the text as
// it is. Throws UsageError for an adapter whose lock does not live on one Redis.
std::string checked_command(const std::string& text) {
  if (!protocol::is_client_row_name(text)) return text;
  protocol::Catalogue catalogue = protocol::shipped_catalogue();
  std::string name = text.substr(0, text.find('@'));
  bool shipped = std::any_of(catalogue.entries.begin(), catalogue.entries.end(),
                             [&](const protocol::CatalogueEntry& e) { return e.spec.name == name; });
  if (!shipped) return text;
  const protocol::ClientSpec& spec = protocol::shipped_client(catalogue, text).spec;
  if (spec.server != protocol::ServerKind::redis || spec.servers != 1) {
    throw UsageError(fmt::format("--check {}: its lock lives on {}{}; --check gives a client one Redis", text,
                                 protocol::to_string(spec.server), spec.servers == 3 ? " (three servers)" : ""));
  }
  return spec.command;
}

void check(const CheckOptions& options, const GlobalOptions& global) {
  std::string command = checked_command(options.command);
  host::TempDir dir("rlock-client-check");
  protocol::Conformance result = protocol::check_conformance(
      protocol::ConformanceSetup{command, global.redis_url, std::chrono::milliseconds(options.ttl_ms),
                                 std::chrono::seconds(options.start_limit_s), dir.path() / "client.stderr"});
  for (const std::string& line : result.passed) fmt::print("ok: {}\n", line);
  for (const std::string& line : result.broken) fmt::print("broken: {}\n", line);
  if (!result.broken.empty()) {
    throw Error(fmt::format("client --check: the client broke {} of the protocol's rules", result.broken.size()));
  }
}

}  // namespace

void register_client(CLI::App& app, const GlobalOptions& global) {
  auto strategy = std::make_shared<std::string>();
  auto wait = std::make_shared<WaitMode>(WaitMode::poll);
  auto checked = std::make_shared<CheckOptions>();
  CLI::App* cmd = app.add_subcommand(
      "client", "a built-in strategy as a protocol client, for rlock chaos --client; or a client checked (--check)");
  CLI::Option* strategy_option = cmd->add_option(
      "--strategy", *strategy, "ttl, watchdog, check-before-write, fenced, fenced-retry, fenced-claim or redlock");
  CLI::Option* check_option = cmd->add_option("--check", checked->command,
                                              "COMMAND (or a shipped adapter's name): run this client through the "
                                              "protocol's checks (init, increments, a refused claim, "
                                              "silence, garbage) on --redis")
                                  ->excludes(strategy_option);
  cmd->add_option("--ttl", checked->ttl_ms, "with --check: the TTL in init, in ms")
      ->check(util::in_range(20L, 60'000L))
      ->default_str("1000");
  cmd->add_option("--start-limit", checked->start_limit_s, "with --check: seconds the client may take to answer init")
      ->check(util::in_range(1, 600))
      ->default_str("60");
  cmd->add_option("--wait", *wait, "how a refused attempt waits: poll, notify, queue or handoff (not for redlock)")
      ->transform(util::by_name(wait_modes_by_name()))
      ->type_name(util::names_of(wait_modes_by_name()))
      ->default_str("poll");
  cmd->callback([strategy, wait, checked, check_option, &global] {
    if (*check_option) return check(*checked, global);
    if (strategy->empty()) throw UsageError("client: give --strategy S, or --check COMMAND to check a client");
    protocol::run_strategy_client(strategy_named(*strategy), *wait, std::cin, std::cout);
  });
}

}  // namespace rlock::cli
