#include "bench/bench_run.h"

#include <algorithm>
#include <cstdio>
#include <memory>

#include <fmt/format.h>

#include "bench/bench_strategy.h"
#include "bench/client_handoff.h"
#include "bench/client_rows.h"
#include "chaos/network.h"
#include "host/local_redis.h"
#include "lab/strategy_list.h"
#include "protocol/client_list.h"
#include "rlock/error.h"
#include "util/duration_text.h"
#include "util/progress.h"

namespace rlock::bench {
namespace {

// What a case measured besides its times, in words.
std::string extra_text(const bench::BenchCase& c) {
  const nlohmann::json& x = c.extra;
  if (x.contains("jain")) {
    std::size_t failed = x.value("failed", std::size_t{0});
    return fmt::format(
        "{:.2f}x the sleeper floor, {:.2f}x the long sleeper's, {} clients, {:.1f} sections/s, "
        "Jain {:.2f}, balance {} ({}){}",
        x["sleeper_ratio"].get<double>(), x["long_sleeper_ratio"].get<double>(), x["clients"].get<int>(),
        x["throughput_per_s"].get<double>(), x["jain"].get<double>(), x["final_balance"].get<long long>(),
        x["balance_ok"].get<bool>() ? "correct"
                                    : fmt::format("WRONG: expected {}", x["expected_balance"].get<long long>()),
        failed > 0 ? fmt::format(", {} increments given up", failed) : "");
  }
  if (x.contains("peak_rss_kb_median")) {
    return fmt::format("peak memory {:.1f} MB (largest {:.1f} MB); floor: spawning /bin/true",
                       x["peak_rss_kb_median"].get<double>() / 1024, x["peak_rss_kb_max"].get<double>() / 1024);
  }
  return "";
}

// `width`: the name column's, for the longest name of the run.
void print_case(const bench::BenchCase& c, std::size_t width) {
  std::string extra = extra_text(c);
  fmt::print("{:<{}} {:>7} {:>10} {:>10} {:>10} {:>7.2f}{}{}\n", c.name, width, c.samples,
             util::duration_text(c.median_us), util::duration_text(c.p99_us), util::duration_text(c.floor_us),
             c.ratio(), extra.empty() ? "" : "  ", extra);
  std::fflush(stdout);  // before the next case forks its clients
}

void print_row(const bench::StrategyRow& r, std::size_t width) {
  fmt::print("{:<{}} {:>7} {:>8} {:>10} {:>10} {:>10} {:>7.2f} {:>10.1f}  {}\n", r.name, width, r.clients, r.accounts,
             util::duration_text(r.median_us), util::duration_text(r.p99_us), util::duration_text(r.floor_us),
             r.ratio(), r.throughput_per_s, r.balance_ok ? "balance ok" : "BALANCE WRONG: an update was lost");
  std::fflush(stdout);  // before the next row forks its clients
}

// The environment, printed and returned for the JSON; then the single-connection cases. Throws
// UsageError when the machine cannot run the clients asked for.
std::vector<bench::BenchCase> environment_and_round_trips(const BenchOptions& options, const bench::BenchSetup& setup,
                                                          nlohmann::json& env, std::size_t width) {
  RedisConnection redis(setup.redis);
  bank::AccountStore store(setup.conninfo);
  bench::check_capacity(std::max(options.clients, bench::kSpreadClients), store);
  fmt::print("rlock bench: {} s a case, {} clients contending, account {}, strategies waiting by {}{}\n",
             options.seconds, options.clients, options.account, wait_mode_name(options.wait),
             options.through_proxy ? ", through the fault proxy" : "");
  for (const auto& [label, value] : bench::bench_environment(redis, store)) {
    fmt::print("{:<11} {}\n", label, value);
    env[label] = value;
  }
  fmt::print("\n{:<{}} {:>7} {:>10} {:>10} {:>10} {:>7}\n", "case", width, "samples", "median", "p99", "floor",
             "ratio");
  std::vector<bench::BenchCase> cases = bench::measure_round_trips(setup, redis, store);
  for (const bench::BenchCase& c : cases) print_case(c, width);
  return cases;
}

// Redlock's three servers, when a redlock row or a NAME@3 client is asked for.
std::vector<std::unique_ptr<host::LocalRedis>> redlock_servers(const std::vector<lab::Strategy>& strategies,
                                                               const std::vector<protocol::ClientSpec>& clients,
                                                               int port, const std::filesystem::path& dir) {
  std::vector<std::unique_ptr<host::LocalRedis>> servers;
  bool three = lab::any_on_three_servers(strategies) ||
               std::any_of(clients.begin(), clients.end(),
                           [](const protocol::ClientSpec& client) { return client.servers == 3; });
  if (!three) return servers;
  for (int i = 0; i < 3; ++i) servers.push_back(std::make_unique<host::LocalRedis>(port + i, dir));
  return servers;
}

// The name column's width: the longest built-in case's (sleeper-floor-long) and one more, or the longest case or row
// name of the clients'.
std::size_t name_width(const std::vector<protocol::ClientSpec>& handoff_clients_asked,
                       const std::vector<protocol::ClientSpec>& clients) {
  std::size_t width = 19;
  for (const protocol::ClientSpec& client : handoff_clients_asked)
    width = std::max(width, std::string("handoff-").size() + client.name.size());
  for (const protocol::ClientSpec& client : clients) width = std::max(width, client.name.size());
  return width;
}

// The strategies' rows, then the clients', under one header; each strategy and client one step of
// `progress`.
std::vector<bench::StrategyRow> strategy_rows(const std::vector<lab::Strategy>& strategies,
                                              const std::vector<protocol::ClientSpec>& clients,
                                              const bench::BenchSetup& setup, util::Progress& progress,
                                              std::size_t& step, std::size_t width) {
  if (strategies.empty() && clients.empty()) return {};
  progress.clear();
  fmt::print("\n{:<{}} {:>7} {:>8} {:>10} {:>10} {:>10} {:>7} {:>10}  {}\n", "strategy", width, "clients", "accounts",
             "median", "p99", "floor", "ratio", "incr/s", "balance");
  std::vector<bench::StrategyRow> rows;
  auto add = [&](std::vector<bench::StrategyRow> measured, std::string_view name) {
    progress.clear();
    for (bench::StrategyRow& row : measured) {
      print_row(row, width);
      rows.push_back(std::move(row));
    }
    std::fflush(stdout);
    progress.update(++step, name);
  };
  for (lab::Strategy strategy : strategies) add(bench::measure_strategy(setup, strategy), to_string(strategy));
  for (const protocol::ClientSpec& client : clients) add(bench::measure_client_rows(setup, client), client.name);
  return rows;
}

// --through-proxy: Redis and PostgreSQL each behind a FaultProxy that passes everything, the proxy
// chaos's network faults put between a worker and a server, so that the run's ratios against one
// without price the proxy. Every connection of the bench and its clients goes through it (one
// thread of this process for them all); redlock's own three servers stay direct.
std::unique_ptr<chaos::TrialNetwork> route_through_proxies(bench::BenchSetup& setup) {
  std::unique_ptr<chaos::TrialNetwork> proxies;
  try {
    proxies = std::make_unique<chaos::TrialNetwork>(1, std::vector<RedisAddress>{setup.redis}, setup.conninfo, 0);
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("--through-proxy: {}", e.what()));
  }
  setup.redis = proxies->redis_of(0).front();
  setup.conninfo = proxies->conninfo_of(0);
  setup.global_args = {"--redis", setup.redis.url(), "--db", setup.conninfo};
  return proxies;
}

}  // namespace

// The run as bench.json holds it (results/bench_file.h).
results::BenchFile bench_file(const std::vector<bench::BenchCase>& cases, const std::vector<bench::StrategyRow>& rows,
                              const nlohmann::json& env) {
  results::BenchFile file{env, {}, {}};
  for (const bench::BenchCase& c : cases) {
    file.cases.push_back(results::BenchFileCase{c.name, static_cast<long>(c.samples), c.median_us, c.p99_us, c.floor_us,
                                                c.ratio(), c.extra});
  }
  for (const bench::StrategyRow& r : rows) {
    file.strategies.push_back(results::BenchFileRow{r.name, r.clients, r.accounts, static_cast<long>(r.increments),
                                                    r.median_us, r.p99_us, r.floor_us, r.ratio(), r.throughput_per_s,
                                                    r.balance_ok, r.client, static_cast<long>(r.failed)});
  }
  return file;
}

// Throws Error when a case's or a row's final balance says an update was lost under the lock.
void check_balances(const std::vector<bench::BenchCase>& cases, const std::vector<bench::StrategyRow>& rows) {
  for (const bench::BenchCase& c : cases) {
    if (c.extra.contains("balance_ok") && !c.extra["balance_ok"].get<bool>()) {
      throw Error(fmt::format("{}: the final balance is wrong: an update was lost under the lock", c.name));
    }
  }
  for (const bench::StrategyRow& r : rows) {
    if (!r.balance_ok) {
      throw Error(fmt::format("{} with {} clients on {} accounts: the final balance is wrong: an update was lost",
                              r.name, r.clients, r.accounts));
    }
  }
}

// --handoff-client's clients, whose case handoff-NAME must not be a built-in hand-off case's. Throws UsageError.
std::vector<protocol::ClientSpec> handoff_clients(const std::vector<std::string>& texts) {
  std::vector<protocol::ClientSpec> clients;
  try {
    clients = protocol::parse_command_line_clients(texts);
  } catch (const UsageError& e) {
    std::string what = e.what();  // said of --client, the flag whose rules these are
    throw UsageError(what.rfind("--client", 0) == 0 ? "--handoff-client" + what.substr(8) : what);
  }
  for (const protocol::ClientSpec& client : clients) {
    if (client.name == "poll" || client.name == "notify" || client.name == "queue" || client.name == "direct") {
      throw UsageError(fmt::format("--handoff-client {}: handoff-{} is a built-in case; name the client otherwise",
                                   client.name, client.name));
    }
  }
  return clients;
}

BenchRun run_bench(const BenchOptions& options, BenchSetup setup, const std::vector<lab::Strategy>& strategies,
                   const std::vector<protocol::ClientSpec>& clients,
                   const std::vector<protocol::ClientSpec>& handoff_clients_asked) {
  std::unique_ptr<chaos::TrialNetwork> proxies = options.through_proxy ? route_through_proxies(setup) : nullptr;
  nlohmann::json env{{"through_proxy", options.through_proxy}};
  std::size_t width = name_width(handoff_clients_asked, clients);
  std::vector<bench::BenchCase> cases = environment_and_round_trips(options, setup, env, width);
  double redis_rtt = cases.front().median_us;
  std::vector<protocol::ClientSpec> all_clients = clients;
  all_clients.insert(all_clients.end(), handoff_clients_asked.begin(), handoff_clients_asked.end());
  auto servers = redlock_servers(strategies, all_clients, options.redlock_port, setup.dir);
  for (const auto& server : servers) setup.redlock.push_back(server->address());
  // The steps: two sleeper floors, four hand-offs and each client's, the start-up, each strategy and each client.
  util::Progress progress(stderr, "bench", "steps",
                          7 + handoff_clients_asked.size() + strategies.size() + clients.size());
  std::size_t step = 0;
  auto measured = [&](bench::BenchCase c) {
    progress.clear();
    print_case(c, width);
    std::fflush(stdout);
    progress.update(++step, c.name);
    cases.push_back(std::move(c));
  };
  progress.update(step);
  bench::SleeperFloors sleepers;
  measured(bench::measure_sleeper_floor(setup, bench::SleeperGap::short_gap));
  sleepers.short_gap_us = cases.back().median_us;
  measured(bench::measure_sleeper_floor(setup, bench::SleeperGap::long_gap));
  sleepers.long_gap_us = cases.back().median_us;
  for (WaitMode mode : {WaitMode::poll, WaitMode::notify, WaitMode::queue, WaitMode::handoff})
    measured(bench::measure_handoff(setup, mode, redis_rtt, sleepers));
  for (const protocol::ClientSpec& client : handoff_clients_asked)
    measured(bench::measure_client_handoff(setup, client, redis_rtt, sleepers));
  measured(bench::measure_startup(setup));
  std::vector<bench::StrategyRow> rows = strategy_rows(strategies, clients, setup, progress, step, width);
  progress.finish();
  if (proxies) {
    env["proxy_connections"] = proxies->accepted();
    fmt::print("\nthrough the fault proxy: {} connections\n", proxies->accepted());
  }
  return BenchRun{std::move(cases), std::move(rows), std::move(env)};
}

}  // namespace rlock::bench
