#include "runner/worker_spawn.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "chaos/trial_loop.h"
#include "host/child.h"
#include "host/process.h"
#include "lab/worker_flags.h"
#include "util/sanitizers.h"

namespace rlock::runner {
namespace {

// `faketime -f "+0 xRATE" rlock --dir DIR worker ...`, the plan as flags; exec'd at once, it waits
// for its delay by the host's clock (lab::sleep_until_wall), so that its start-up, slower than a
// fork's, comes before the trial's start. The servers' addresses go by the environment, where no
// `ps` shows a password.
std::vector<std::string> skewed_command(const lab::WorkerPlan& plan, const lab::RunSetup& setup, double clock_rate) {
  std::vector<std::string> args{"faketime",
                                "-f",
                                fmt::format("+0 x{:.6f}", clock_rate),
                                host::own_binary(),
                                "--dir",
                                setup.dir.root().string(),
                                "worker",
                                plan.name,
                                std::to_string(plan.amount),
                                "--account",
                                std::to_string(plan.account),
                                "--ttl",
                                std::to_string(plan.ttl.count()),
                                "--delay",
                                fmt::format("{:.6f}", plan.delay_seconds),
                                "--pause",
                                fmt::format("{:.6f}", plan.work_seconds),
                                "--retry-every",
                                std::to_string(plan.busy_retry.count())};
  for (std::string& flag : lab::strategy_args(plan.strategy, plan.redlock)) args.push_back(std::move(flag));
  if (lab::lock_servers(plan.strategy) == 1) {
    args.insert(args.end(), {"--wait", std::string(wait_mode_name(plan.wait))});
  }
  return args;
}

}  // namespace

lab::WorkerPlan plan_for(lab::Strategy strategy, const lab::WorkerPlan& w, long account, const chaos::ChaosSetup& setup,
                         const std::vector<RedisAddress>& redlock) {
  lab::WorkerPlan plan = w;  // its name, amount, start, work and hold, as the schedule drew them
  plan.account = account;
  plan.ttl = setup.ttl;
  plan.busy_retry = chaos::kBusyRetry;
  plan.strategy = strategy;
  if (lab::lock_servers(strategy) == 3) plan.redlock = redlock;
  if (lab::lock_servers(strategy) == 1) plan.wait = setup.wait;
  return plan;
}

pid_t spawn_worker(const lab::WorkerPlan& plan, const lab::RunSetup& setup, double clock_rate,
                   const std::function<void()>& first) {
  if (clock_rate != 1) {
    std::vector<std::string> args = skewed_command(plan, setup, clock_rate);
    return host::fork_child([&] {
      // libfaketime 0.9.10 fakes CLOCK_MONOTONIC as the faked wall time but does not intercept
      // pthread_cond_clockwait, so a steady_clock wait (the watchdog's tick) would never return;
      // the monotonic clock stays the host's, the wall clock and every sleep run at the rate.
      ::setenv("FAKETIME_DONT_FAKE_MONOTONIC", "1", 1);
#if RLOCK_ADDRESS_SANITIZER
      // This rlock is built with AddressSanitizer (the asan preset), whose runtime refuses to start
      // when a preloaded library comes before it, and faketime preloads libfaketime. Only the
      // order is wrong: libfaketime's clock calls reach libc through the runtime's interceptors.
      const char* asan = ::getenv("ASAN_OPTIONS");
      std::string options = fmt::format("{}{}verify_asan_link_order=0", asan ? asan : "", asan && *asan ? ":" : "");
      ::setenv("ASAN_OPTIONS", options.c_str(), 1);
#endif
      // Its output (a rejected fenced write's line) stays with the trial, off the campaign's terminal.
      std::string log = (setup.dir.root() / fmt::format("worker-{}.log", plan.name)).string();
      int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
      if (fd >= 0) {
        ::dup2(fd, STDOUT_FILENO);
        ::dup2(fd, STDERR_FILENO);
      }
      ::setenv("REDIS_URL", setup.redis.url().c_str(), 1);
      ::setenv("DATABASE_URL", setup.conninfo.c_str(), 1);
      std::vector<char*> argv;
      for (std::string& arg : args) argv.push_back(arg.data());
      argv.push_back(nullptr);
      ::execvp(argv[0], argv.data());
      return 127;
    });
  }
  return host::fork_child([&] {
    if (first) first();
    try {
      strategy::run_worker(plan, setup);
    } catch (const lab::WriteRejected&) {
      return 3;
    }
    return 0;
  });
}

}  // namespace rlock::runner
