// rlock bench [--seconds S] [--clients N] [--json FILE] [--account N]: the cost of a lock over the
// round trips it needs (bench.h). Prints the environment, then one line per case: median, p99,
// the floor measured in the same run and the ratio to it. Exits 1 when the contended runs ended
// with a wrong balance.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>

#include <fmt/format.h>

#include "bench/bench.h"
#include "cli/commands.h"
#include "rlock/error.h"
#include "host/temp_dir.h"
#include "util/duration_text.h"

namespace rlock::cli {
namespace {

struct BenchOptions {
  double seconds = 3;
  int clients = 2;
  long account = 7000;
  std::string json;
};

// What a case measured besides its times, in words.
std::string extra_text(const BenchCase& c) {
  const nlohmann::json& x = c.extra;
  if (x.contains("jain")) {
    return fmt::format("{} clients, {:.1f} sections/s, Jain {:.2f}, balance {} ({})", x["clients"].get<int>(),
                       x["throughput_per_s"].get<double>(), x["jain"].get<double>(), x["final_balance"].get<long long>(),
                       x["balance_ok"].get<bool>() ? "correct" : fmt::format("WRONG: expected {}", x["expected_balance"].get<long long>()));
  }
  if (x.contains("peak_rss_kb_median")) {
    return fmt::format("peak memory {:.1f} MB (largest {:.1f} MB); floor: spawning /bin/true",
                       x["peak_rss_kb_median"].get<double>() / 1024, x["peak_rss_kb_max"].get<double>() / 1024);
  }
  return "";
}

void print_case(const BenchCase& c) {
  std::string extra = extra_text(c);
  fmt::print("{:<15} {:>7} {:>10} {:>10} {:>10} {:>7.2f}{}{}\n", c.name, c.samples, duration_text(c.median_us),
             duration_text(c.p99_us), duration_text(c.floor_us), c.ratio(), extra.empty() ? "" : "  ", extra);
  std::fflush(stdout);  // before the next case forks its clients
}

nlohmann::json case_json(const BenchCase& c) {
  nlohmann::json out{{"name", c.name},         {"samples", c.samples},   {"median_us", c.median_us},
                     {"p99_us", c.p99_us},     {"floor_us", c.floor_us}, {"ratio", c.ratio()}};
  out.update(c.extra);
  return out;
}

void write_json(const std::string& path, const std::vector<BenchCase>& cases, const nlohmann::json& env) {
  nlohmann::json out{{"cases", nlohmann::json::array()}, {"env", env}};
  for (const BenchCase& c : cases) out["cases"].push_back(case_json(c));
  std::ofstream file(path);
  file << out.dump(2) << '\n';
  if (!file) throw Error(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
}

// Throws Error when a case's final balance says an update was lost under the lock.
void check_balances(const std::vector<BenchCase>& cases) {
  for (const BenchCase& c : cases) {
    if (c.extra.contains("balance_ok") && !c.extra["balance_ok"].get<bool>()) {
      throw Error(fmt::format("{}: the final balance is wrong: an update was lost under the lock", c.name));
    }
  }
}

void bench(const BenchOptions& options, const GlobalOptions& global) {
  LabSetup lab = global.setup();
  TempDir scratch("rlock_bench");  // the clients' records and the startup runs' lab directory
  BenchSetup setup{lab.redis, lab.conninfo, scratch.path(), options.account,
                   std::chrono::duration<double>(options.seconds), options.clients,
                   std::filesystem::read_symlink("/proc/self/exe"), {"--redis", global.redis_url, "--db", global.db}};
  if (!global.sentinel.empty()) setup.global_args.insert(setup.global_args.end(), {"--sentinel", global.sentinel, "--master", global.master});

  std::vector<BenchCase> cases;
  nlohmann::json env = nlohmann::json::object();
  {
    RedisConnection redis(setup.redis);
    AccountStore store(setup.conninfo);
    fmt::print("rlock bench: {} s a case, {} clients contending, account {}\n", options.seconds, options.clients,
               options.account);
    for (const auto& [label, value] : bench_environment(redis, store)) {
      fmt::print("{:<11} {}\n", label, value);
      env[label] = value;
    }
    fmt::print("\n{:<15} {:>7} {:>10} {:>10} {:>10} {:>7}\n", "case", "samples", "median", "p99", "floor", "ratio");
    for (BenchCase& c : measure_round_trips(setup, redis, store)) {
      print_case(c);
      cases.push_back(std::move(c));
    }
  }
  double redis_rtt = cases.front().median_us;
  for (WaitMode mode : {WaitMode::poll, WaitMode::notify}) {
    cases.push_back(measure_handoff(setup, mode, redis_rtt));
    print_case(cases.back());
  }
  cases.push_back(measure_startup(setup));
  print_case(cases.back());

  if (!options.json.empty()) write_json(options.json, cases, env);
  check_balances(cases);
}

}  // namespace

void register_bench(CLI::App& app, const GlobalOptions& global) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* cmd = app.add_subcommand("bench", "measure the lock against its round-trip floors (a benchmark, not a test)");
  cmd->add_option("--seconds", options->seconds, "seconds per case")->check(CLI::Range(0.1, 3600.0))->capture_default_str();
  cmd->add_option("--clients", options->clients, "processes contending in the handoff cases")
      ->check(CLI::Range(2, 64))
      ->capture_default_str();
  cmd->add_option("--account", options->account, "the account (row and lock keys) the benchmark uses")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--json", options->json, "also write the cases and the environment as JSON to this file");
  cmd->callback([options, &global] { bench(*options, global); });
}

}  // namespace rlock::cli
