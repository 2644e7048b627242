#include "failover_pair.h"

#include <signal.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "error.h"
#include "process.h"
#include "redis_lock.h"
#include "redis_server.h"

namespace rlock {
namespace {

using namespace std::chrono_literals;

// The last line redis-server wrote to its log: why it did not start, usually.
std::string last_line(const std::filesystem::path& log) {
  std::ifstream in(log);
  std::string line, last;
  while (std::getline(in, line)) {
    if (!line.empty()) last = line;
  }
  return last.empty() ? "no log" : last;
}

}  // namespace

FailoverPair::Server::Server(int port, const std::filesystem::path& relative_dir, std::optional<int> replica_of) {
  address.port = port;
  std::filesystem::path dir = std::filesystem::absolute(relative_dir);  // redis-server changes into it
  std::filesystem::path log = dir / fmt::format("redis-{}.log", port);
  std::vector<std::string> args{"redis-server", "--port", std::to_string(port), "--bind", address.host,
                                "--save", "", "--appendonly", "no", "--dir", dir.string(),
                                "--logfile", log.string(),
                                // A diskless sync streams writes only after the replica's first
                                // ACK, a second later; an RDB file of an empty primary takes ms.
                                "--repl-diskless-sync", "no"};
  if (replica_of) args.insert(args.end(), {"--replicaof", address.host, std::to_string(*replica_of)});
  pid = spawn_redis_server(args);
  bool exited = false;
  bool answers = wait_for(5s, [&] {
    if (::waitpid(pid, nullptr, WNOHANG) == pid) exited = true;
    if (exited) return true;
    try {
      connection = std::make_unique<RedisConnection>(address, RedisTimeouts{200ms, 2000ms});
      return true;
    } catch (const Error&) {
      return false;
    }
  });
  if (exited || !answers) {
    if (exited) pid = 0;
    kill();
    throw Error(fmt::format("redis-server on {} did not start: {}", address.display(), last_line(log)));
  }
  // A server of someone else's on this port would answer too.
  if (std::string owner = connection->server_info("process_id"); std::stol(owner) != pid) {
    kill();
    throw Error(fmt::format("redis-server on {} did not start: the port is taken by another Redis (pid {})",
                            address.display(), owner));
  }
}

FailoverPair::Server::~Server() { kill(); }

void FailoverPair::Server::kill() {
  connection.reset();
  if (pid == 0) return;
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  pid = 0;
}

FailoverPair::FailoverPair(int primary_port, const std::filesystem::path& dir)
    : primary_(primary_port, dir, std::nullopt), replica_(primary_port + 1, dir, primary_port) {
  // The replica may say "connected" before the primary streams writes to it: only an
  // acknowledged write proves that the next ones will reach it.
  constexpr std::string_view kProbe = "rlock:failover:probe";
  bool in_sync = wait_for(5s, [&] {
    primary_.connection->checked({"SET", kProbe, "1"});
    return primary_.connection->checked({"WAIT", "1", "200"}).integer() >= 1;
  });
  primary_.connection->checked({"DEL", kProbe});
  if (!in_sync) throw Error(fmt::format("the replica on {} did not sync within 5 s", replica_.address.display()));
}

FailoverPair::~FailoverPair() = default;

void FailoverPair::stop_replication() { replica_.connection->checked({"REPLICAOF", "NO", "ONE"}); }

void FailoverPair::fail_over(const LockKey& key, const RunLog& log) {
  long long pttl = RedisLock(*primary_.connection, key).pttl();
  stop_replication();
  double killed = wall_seconds();
  primary_.kill();
  replica_.connection->checked({"CONFIG", "SET", "port", std::to_string(primary_.address.port)});
  log.record_at(killed, "host", EventKind::redis_killed, {{"server", primary_.address.display()}, {"pttl", pttl}});
  log.record("host", EventKind::redis_promoted,
             {{"server", replica_.address.display()}, {"pttl", RedisLock(*replica_.connection, key).pttl()}});
}

}  // namespace rlock
