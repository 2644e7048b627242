// rlock: is a Redis distributed lock really safe? Replays the answer against a real Redis and a
// real PostgreSQL.
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "card/verdict.h"
#include "checker/tally.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/global_options.h"
#include "cli/usage_hints.h"
#include "cli/version.h"
#include "lab/worker_plan.h"
#include "rlock/error.h"

namespace {

void log_errors_to_stderr() {
  auto logger = spdlog::stderr_logger_st("rlock");
  logger->set_pattern("rlock: %l: %v");
  spdlog::set_default_logger(logger);
}

// Every subcommand, one file each (commands.h), and the global options they share.
void register_all(CLI::App& app, rlock::cli::GlobalOptions& global) {
  using namespace rlock::cli;
  app.require_subcommand(1);
  app.fallthrough();  // global options may come after the subcommand too
  register_global_options(app, global);
  register_reset(app, global);
  register_worker(app, global);
  register_showlog(app, global);
  register_sig(app, global);
  register_verdict(app, global);
  register_redis(app, global);
  register_chaos(app, global);
  register_explore(app, global);
  register_bench(app, global);
  register_timeline(app, global);
  register_report(app, global);
  register_netns(app, global);
  register_analyze(app, global);
  register_merge(app, global);
  register_client(app, global);
  register_clients(app, global);
  register_scenario(app, global);
  register_scenarios(app, global);
  register_judge(app, global);
  register_facts(app);
  register_help(app);
  // After the global options, whose values (from flags or the environment) it reports.
  app.set_version_flag(
      "-V,--version", [&global] { return version_text(global); },
      "the version, the commit, its libraries, the servers it finds and the client adapters installed");
}

// A parse error in one line, with the help to read. When no subcommand was found, what stood in
// its place: an unknown subcommand (and the nearest known one) or an unknown option.
std::string parse_error_text(CLI::App& app, const CLI::ParseError& e) {
  using namespace rlock::cli;
  if (app.get_subcommands().empty() && e.get_name() == "RequiredError") {
    if (auto stray = stray_subcommand(app)) return unknown_subcommand(app, *stray);
    if (!app.remaining().empty()) return unknown_option(app, app.remaining().front());
    return "a subcommand is required (rlock help lists them)";
  }
  return plain_parse_error(app, e);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace rlock::cli;
  log_errors_to_stderr();

  CLI::App app{"rlock: is a Redis distributed lock really safe? Replays the article's labs on real servers.", "rlock"};
  GlobalOptions global;
  register_all(app, global);
  app.footer(kExitCodeTable);

  try {
    app.parse(argc, argv);
    return kSuccess;
  } catch (const CLI::Success& e) {  // --help, --help-all, --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    spdlog::error("{}", parse_error_text(app, e));
    return kUsage;
  } catch (const rlock::UsageError& e) {
    spdlog::error("{}", e.what());
    return kUsage;
  } catch (const rlock::chaos::HarnessLost& e) {
    spdlog::error("{}", e.what());
    return kHarnessLost;
  } catch (const rlock::chaos::Interrupted& e) {
    spdlog::error("{}", e.what());
    return kInterrupted;
  } catch (const rlock::card::MoneyLost& e) {
    spdlog::error("{}", e.what());
    return kMoneyLost;
  } catch (const rlock::card::LivenessLost& e) {
    spdlog::error("{}", e.what());
    return kLivenessLost;
  } catch (const rlock::checker::UnexpectedAnomaly& e) {
    spdlog::error("{}", e.what());
    return kAnomaly;
  } catch (const rlock::lab::WriteRejected& e) {
    spdlog::error("{}", e.what());
    return kWriteRejected;
  } catch (const rlock::Error& e) {
    spdlog::error("{}", e.what());
    return kFailure;
  } catch (const std::exception& e) {
    spdlog::critical("internal error: {}", e.what());
    return kInternal;
  }
}
