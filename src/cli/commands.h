// The subcommands: each register_X binds X's flags to an options struct and sets a callback that
// calls the lock library. One file per subcommand.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/global_options.h"

namespace rlock::cli {

void register_reset(CLI::App& app, const GlobalOptions& global);
void register_worker(CLI::App& app, const GlobalOptions& global);
void register_showlog(CLI::App& app, const GlobalOptions& global);
void register_sig(CLI::App& app, const GlobalOptions& global);
void register_verdict(CLI::App& app, const GlobalOptions& global);
void register_redis(CLI::App& app, const GlobalOptions& global);
void register_chaos(CLI::App& app, const GlobalOptions& global);
void register_explore(CLI::App& app, const GlobalOptions& global);
void register_bench(CLI::App& app, const GlobalOptions& global);
void register_timeline(CLI::App& app, const GlobalOptions& global);
void register_report(CLI::App& app, const GlobalOptions& global);
void register_netns(CLI::App& app, const GlobalOptions& global);
void register_analyze(CLI::App& app, const GlobalOptions& global);
void register_merge(CLI::App& app, const GlobalOptions& global);
void register_client(CLI::App& app, const GlobalOptions& global);
void register_clients(CLI::App& app, const GlobalOptions& global);
void register_scenario(CLI::App& app, const GlobalOptions& global);
void register_scenarios(CLI::App& app, const GlobalOptions& global);
void register_judge(CLI::App& app, const GlobalOptions& global);
// rlock facts (hidden): the figures the docs state, for the docs test.
void register_facts(CLI::App& app);
// rlock help [SUBCOMMAND]: prints the help of `app` or of one of its subcommands.
void register_help(CLI::App& app);

}  // namespace rlock::cli
