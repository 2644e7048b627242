// rlock sig STOP|CONT NAME: signals worker NAME by its pid file and logs it as the host.
#include <signal.h>

#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "lab/run_log.h"
#include "lab/worker_process.h"

namespace rlock::cli {
namespace {

struct SigOptions {
  std::string signal;
  std::string name;
};

void send(const SigOptions& options, const GlobalOptions& global) {
  lab::RunSetup setup = global.setup();
  int number = options.signal == "STOP" ? SIGSTOP : SIGCONT;
  lab::RunLog log(setup.dir, setup.lang);
  pid_t pid = lab::find_worker(setup.dir, options.name);
  lab::signal_and_record(log, pid, number, fmt::format("worker {}", options.name), lab::EventKind::signal,
                         {{"signal", "SIG" + options.signal}, {"target", options.name}});
}

}  // namespace

void register_sig(CLI::App& app, const GlobalOptions& global) {
  auto options = std::make_shared<SigOptions>();
  CLI::App* cmd = app.add_subcommand("sig", "send SIGSTOP or SIGCONT to a worker and log it");
  cmd->add_option("SIGNAL", options->signal, "STOP or CONT")
      ->required()
      ->transform(CLI::IsMember({"STOP", "CONT"}, CLI::ignore_case));
  cmd->add_option("NAME", options->name, "worker name")->required();
  cmd->callback([options, &global] { send(*options, global); });
}

}  // namespace rlock::cli
