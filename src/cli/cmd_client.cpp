// rlock client --strategy S [--wait MODE]: a built-in Redis strategy as a protocol client (docs/clients.md), for
// `rlock chaos --client NAME=COMMAND`; its cells beside the built-in ones are the protocol's
// conformance test, and with --wait its hand-off is rlock's own through the protocol (rlock bench --handoff-client).
// Speaks on stdin and stdout; exit 0 when the harness closes stdin.
// rlock client --check COMMAND [--server KIND] [--ttl MS] [--start-limit S]: a client of the user's, or a shipped
// adapter, checked against the protocol's rules before a campaign (protocol/conformance.h), given --redis (three
// Redis servers of its own for redis3; etcd, ZooKeeper, Hazelcast or PostgreSQL through the variable its adapter
// reads): a line a step passed, a line a rule broken on stdout, exit 1 when one was.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "host/local_redis.h"
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
  std::string server = "redis";  // where a command's lock lives, as --client's @KIND
  long ttl_ms = 1000;
  int start_limit_s = 60;
  int redlock_port = 6760;
};

// --check's client: a shipped adapter's, given its catalogue name (NAME or NAME@V), or the text as
// a command whose lock lives on --server. Throws UsageError for an unknown --server, and for a
// server named by a variable (ETCD_ENDPOINT...) that is not set.
protocol::ClientSpec checked_client(const CheckOptions& options, bool server_given) {
  protocol::ClientSpec client{"check", options.command};
  std::string name = options.command.substr(0, options.command.find('@'));
  protocol::Catalogue catalogue;
  if (protocol::is_client_row_name(options.command)) catalogue = protocol::shipped_catalogue();
  if (std::any_of(catalogue.entries.begin(), catalogue.entries.end(),
                  [&](const protocol::CatalogueEntry& e) { return e.spec.name == name; })) {
    if (server_given)
      throw UsageError(fmt::format("--server: {} is a shipped adapter, whose server is its catalogue's", name));
    client = protocol::shipped_client(catalogue, options.command).spec;
  } else {
    if (!protocol::set_server_from(options.server, client)) {
      throw UsageError(fmt::format("--server '{}': where the lock lives: {}", options.server, protocol::kServerKinds));
    }
  }
  std::string variable(protocol::address_variable(client.server));
  if (const char* value = std::getenv(variable.c_str()); !variable.empty() && (!value || !*value)) {
    throw UsageError(fmt::format(
        "--check {}: its lock lives on {}, which {} names, and {} is not set "
        "(scripts/services.sh env exports it)",
        protocol::blank_command_secrets(options.command), protocol::to_string(client.server), variable, variable));
  }
  return client;
}

void check(const CheckOptions& options, bool server_given, const GlobalOptions& global) {
  protocol::ClientSpec client = checked_client(options, server_given);
  host::TempDir dir("rlock-client-check");
  std::vector<std::unique_ptr<host::LocalRedis>> redlock;  // Redlock's three, rlock's own for the check
  std::vector<std::string> redis{global.redis_url};
  if (client.servers == 3) {
    redis.clear();
    for (int i = 0; i < 3; ++i) {
      redlock.push_back(std::make_unique<host::LocalRedis>(options.redlock_port + i, dir.path()));
      redis.push_back(redlock.back()->address().url());
    }
  }
  protocol::Conformance result = protocol::check_conformance(
      protocol::ConformanceSetup{client.command, redis, std::chrono::milliseconds(options.ttl_ms),
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
                                              "silence, garbage) on --redis, or on --server")
                                  ->excludes(strategy_option);
  CLI::Option* server_option =
      cmd->add_option("--server", checked->server,
                      "with --check COMMAND: where its lock lives: redis, redis3 (three servers of rlock's own), etcd, "
                      "zookeeper, hazelcast or postgres (named by ETCD_ENDPOINT, ZOOKEEPER_CONNECT, HAZELCAST_MEMBERS "
                      "or PG_ENDPOINT)")
          ->default_str("redis");
  cmd->add_option("--redlock-port", checked->redlock_port,
                  "with --check on redis3: its three servers run on this port and the next two")
      ->check(util::in_range(1024, 65533))
      ->default_str("6760");
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
  cmd->callback([strategy, wait, checked, check_option, server_option, &global] {
    if (*check_option) return check(*checked, static_cast<bool>(*server_option), global);
    if (strategy->empty()) throw UsageError("client: give --strategy S, or --check COMMAND to check a client");
    protocol::run_strategy_client(strategy_named(*strategy), *wait, std::cin, std::cout);
  });
}

}  // namespace rlock::cli
