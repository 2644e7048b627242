// rlock bench's run: the environment and the round trips, the sleeper floors, the four hand-offs
// and each protocol client's own (client_handoff.h), the start-up, then the price of safety of each
// strategy (bench_strategy.h) and of each protocol client (client_rows.h), each case and row printed
// as it comes, with its progress on stderr; --through-proxy puts chaos's fault proxy, passing, in
// front of Redis and PostgreSQL. The CLI binds the flags into BenchOptions, reads the arguments and
// keeps the run (cli/cmd_bench.cpp). Runs in the calling process, which forks the cases' processes.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/bench.h"
#include "bench/strategy_row.h"
#include "lab/strategy.h"
#include "protocol/client_spec.h"
#include "results/bench_file.h"

namespace rlock::bench {

struct BenchOptions {
  double seconds = 3;
  int clients = 2;
  long account = 7000;
  std::string json;
  std::vector<std::string> strategies;  // strategy_list.h; empty: default_bench_strategies()
  WaitMode wait = WaitMode::poll;
  int redlock_port = 6740;
  std::vector<std::string> clients_specs;  // --client NAME=COMMAND
  std::vector<std::string> handoff_specs;  // --handoff-client NAME
  bool through_proxy = false;
};

// What a run measured, and the environment it printed.
struct BenchRun {
  std::vector<BenchCase> cases;
  std::vector<StrategyRow> rows;
  nlohmann::json env;
};

// --handoff-client's clients, whose case handoff-NAME must not be a built-in hand-off case's. Throws UsageError.
std::vector<protocol::ClientSpec> handoff_clients(const std::vector<std::string>& texts);

// The run on `setup` (its dir a scratch directory the run fills) of `strategies`, `clients` and the
// hand-offs of `handoff_clients_asked`. Throws UsageError when the machine cannot run the clients
// asked for.
BenchRun run_bench(const BenchOptions& options, BenchSetup setup, const std::vector<lab::Strategy>& strategies,
                   const std::vector<protocol::ClientSpec>& clients,
                   const std::vector<protocol::ClientSpec>& handoff_clients_asked);

// The run as bench.json holds it (results/bench_file.h).
results::BenchFile bench_file(const std::vector<BenchCase>& cases, const std::vector<StrategyRow>& rows,
                              const nlohmann::json& env);

// Throws Error when a case's or a row's final balance says an update was lost under the lock.
void check_balances(const std::vector<BenchCase>& cases, const std::vector<StrategyRow>& rows);

}  // namespace rlock::bench
