// rlock bench [--seconds S] [--clients N] [--json FILE] [--account N] [--strategies LIST]
// [--wait poll|notify|queue|handoff] [--redlock-port P] [--client NAME=COMMAND ...] [--handoff-client NAME ...]
// [--through-proxy]: the cost of a lock over the round trips it needs (bench.h), run by bench/bench_run.h, which
// prints the environment, then one line per case and per strategy row: median, p99, the floor measured in the same run
// and the ratio to it, with its progress on stderr. Reads every argument before a server is asked, then keeps the run
// in DIR/bench/runs/<UTC time>/ (bench.json and report.html, whose path it prints). Exits 1 when a contended run ended
// with a wrong balance.
#include <memory>

#include <fmt/format.h>

#include "bench/bench_run.h"
#include "bench/bench_strategy.h"
#include "cli/commands.h"
#include "cli/named_servers.h"
#include "host/process.h"
#include "host/temp_dir.h"
#include "lab/strategy_list.h"
#include "protocol/client_list.h"
#include "report/report.h"
#include "results/bench_file.h"
#include "util/option_checks.h"
#include "util/run_dir.h"

namespace rlock::cli {
namespace {

bench::BenchSetup setup_of(const bench::BenchOptions& options, const GlobalOptions& global,
                           const std::filesystem::path& dir) {
  lab::RunSetup lab = setup_to_change_data(global, "bench", ServersChanged::redis_and_db);
  bench::BenchSetup setup{lab.redis,
                          lab.conninfo,
                          dir,
                          options.account,
                          std::chrono::duration<double>(options.seconds),
                          options.clients,
                          host::own_binary(),
                          {"--redis", global.redis_url, "--db", global.db},
                          options.wait,
                          {}};
  if (!global.sentinel.empty())
    setup.global_args.insert(setup.global_args.end(), {"--sentinel", global.sentinel, "--master", global.master});
  return setup;
}

// The run kept in DIR/bench/runs/<UTC time>/: its bench.json and its report, whose path is printed.
void keep_run(const GlobalOptions& global, const std::vector<bench::BenchCase>& cases,
              const std::vector<bench::StrategyRow>& rows, const nlohmann::json& env) {
  std::filesystem::path run = util::unused_path(std::filesystem::path(global.own_data_dir()) / "bench" / "runs" /
                                                util::utc_now("%Y%m%dT%H%M%SZ"));
  std::filesystem::create_directories(run);
  results::write_bench_file(run / "bench.json", bench_file(cases, rows, env));
  report::write_report({run}, run / "report.html", lab::parse_lang(global.lang));
  fmt::print("\nreport: {}\n", (run / "report.html").string());
}

void bench(const bench::BenchOptions& options, const GlobalOptions& global) {
  std::vector<lab::Strategy> strategies =
      lab::parse_strategy_list(options.strategies, bench::default_bench_strategies());
  std::vector<protocol::ClientSpec> clients = protocol::parse_command_line_clients(options.clients_specs);
  std::vector<protocol::ClientSpec> handoff_clients = bench::handoff_clients(options.handoff_specs);
  host::TempDir scratch("rlock_bench");  // the clients' records, the startup runs' data directory, redlock's servers
  bench::BenchRun run =
      bench::run_bench(options, setup_of(options, global, scratch.path()), strategies, clients, handoff_clients);
  if (!options.json.empty()) results::write_bench_file(options.json, bench::bench_file(run.cases, run.rows, run.env));
  keep_run(global, run.cases, run.rows, run.env);
  bench::check_balances(run.cases, run.rows);
}

}  // namespace

void register_bench(CLI::App& app, const GlobalOptions& global) {
  auto options = std::make_shared<bench::BenchOptions>();
  CLI::App* cmd =
      app.add_subcommand("bench", "measure the lock against its round-trip floors (a benchmark, not a test)");
  cmd->add_option("--seconds", options->seconds, "seconds per case (a handoff case: and until it has 20 hand-offs)")
      ->check(util::in_range(0.1, 3600.0))
      ->capture_default_str();
  cmd->add_option("--clients", options->clients, "processes contending in the handoff cases (2 or more)")
      ->check(util::in_range(2, 1 << 20))
      ->capture_default_str();
  cmd->add_option("--account", options->account,
                  "the first account (row and lock keys) the benchmark uses (and the next 15)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--json", options->json,
                  "also write the cases, the strategy rows and the environment as JSON to this file");
  cmd->add_option("--strategies", options->strategies,
                  "the strategies to price, comma-separated, or none (default: ttl, "
                  "watchdog, fenced-retry, fenced-claim, redlock, pg-atomic, pg-row-lock, pg-advisory)")
      ->delimiter(',');
  cmd->add_option("--wait", options->wait, "how the strategies' refused workers wait: poll, notify, queue or handoff")
      ->transform(util::by_name(wait_modes_by_name()))
      ->type_name(util::names_of(wait_modes_by_name()))
      ->default_str("poll");
  cmd->add_option("--redlock-port", options->redlock_port, "redlock's three servers run on this port and the next two")
      ->check(util::in_range(1024, 65533))
      ->capture_default_str();
  cmd->add_option("--client", options->clients_specs,
                  "a protocol client measured beside the strategies on the same "
                  "servers, as NAME=COMMAND (NAME@3=COMMAND: on redlock's three servers) or a shipped adapter's NAME "
                  "(rlock clients); repeatable (docs/clients.md)");
  cmd->add_option("--handoff-client", options->handoff_specs,
                  "a protocol client whose own lock's hand-off is measured beside the handoff cases, with --clients "
                  "processes of it (case handoff-NAME): a shipped adapter's NAME or NAME=COMMAND; repeatable "
                  "(docs/bench.md)");
  cmd->add_flag("--through-proxy", options->through_proxy,
                "every connection to Redis and PostgreSQL through chaos's "
                "fault proxy, passing: compare the ratios with a run without (docs/bench.md)");
  cmd->callback([options, &global] { bench(*options, global); });
}

}  // namespace rlock::cli
