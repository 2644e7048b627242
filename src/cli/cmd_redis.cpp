// rlock redis restart|kill|stop|cont|promote [--account N]: the host's faults on the local Redis at
// --redis, each logged as a host event with the lock's PTTL where Redis can still tell it.
//   restart  SIGKILL, then start again from the same config file (a crash and a restart)
//   kill     SIGKILL only (a primary lost for good)
//   stop     SIGSTOP (a replica that stops receiving), cont: SIGCONT
//   promote  REPLICAOF NO ONE (a failover done by hand), unless Sentinel already made it the primary
#include <signal.h>

#include <fstream>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/named_servers.h"
#include "host/redis_server.h"
#include "lab/host_events.h"
#include "lab/run_log.h"
#include "rlock/error.h"
#include "rlock/lock_key.h"
#include "rlock/redis_lock.h"

namespace rlock::cli {
namespace {

struct RedisOptions {
  std::string action;
  long account = 1;
};

// The pid of a stopped Redis cannot be asked from Redis: `stop` leaves it here for `cont`.
std::filesystem::path stopped_pid_file(const lab::RunSetup& setup) {
  return setup.dir.root() / fmt::format(".redis_pid_{}", setup.redis.port);
}

void act(const RedisOptions& options, const GlobalOptions& global) {
  lab::RunSetup setup = setup_to_change_data(global, "redis", ServersChanged::redis);
  lab::RunLog log(setup.dir, setup.lang);
  std::string server = setup.redis.display();
  LockKey key = LockKey::for_account(options.account);

  if (options.action == "cont") {
    std::ifstream in(stopped_pid_file(setup));
    pid_t pid = 0;
    if (!(in >> pid)) throw Error(fmt::format("Redis at {} was not stopped by `rlock redis stop`", server));
    lab::signal_and_record(log, pid, SIGCONT, "Redis at " + server, lab::EventKind::redis_signal,
                           {{"server", server}, {"signal", "SIGCONT"}});
    std::filesystem::remove(stopped_pid_file(setup));
    return;
  }

  RedisConnection redis(setup.redis);
  if (options.action == "promote") {
    host::local_redis_process(redis);  // only a Redis that rlock or its scripts started
    if (redis.checked({"ROLE"}).element(0).text() != "master") redis.checked({"REPLICAOF", "NO", "ONE"});
    long long pttl = RedisLock(redis, key).pttl();
    log.record("host", lab::EventKind::redis_promoted, {{"server", server}, {"pttl", pttl}});
    return;
  }

  if (options.action == "stop") {
    host::RedisProcess process = host::local_redis_process(redis);
    setup.dir.write_file(stopped_pid_file(setup), fmt::format("{}\n", process.pid));
    lab::signal_and_record(log, process.pid, SIGSTOP, "Redis at " + server, lab::EventKind::redis_signal,
                           {{"server", server}, {"signal", "SIGSTOP"}});
    return;
  }
  lab::record_crash(log, host::crash_redis(redis, key, /*start_again=*/options.action == "restart"));
}

}  // namespace

void register_redis(CLI::App& app, const GlobalOptions& global) {
  auto options = std::make_shared<RedisOptions>();
  CLI::App* cmd = app.add_subcommand("redis", "the host's faults on the local Redis at --redis, logged");
  cmd->add_option("ACTION", options->action, "restart (SIGKILL and start again), kill, stop, cont, promote")
      ->required()
      ->check(CLI::IsMember({"restart", "kill", "stop", "cont", "promote"}));
  cmd->add_option("--account", options->account, "whose lock's PTTL to report")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->callback([options, &global] { act(*options, global); });
}

}  // namespace rlock::cli
