// What the campaign needs of the servers it does not own, the shared Redis and PostgreSQL and the
// etcd or ZooKeeper its clients lock on: a step that needs one turns its failure into HarnessLost
// naming the server (needing), the campaign's stop file tells its jobs to stop, and the watch
// watches those servers while jobs run.
//
// Functions on the calling process's connections and files; ServerWatch is not thread-safe.
#pragma once

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "chaos/chaos.h"
#include "chaos/job.h"
#include "rlock/error.h"

namespace rlock::chaos {

// Where the campaign tells its jobs to stop: it lost a server the harness needs.
inline std::filesystem::path stop_file(const ChaosSetup& setup) { return setup.dir / "trials" / ".stop"; }
inline bool stopping(const ChaosSetup& setup) { return std::filesystem::exists(stop_file(setup)); }

// A trial cut short because the campaign stops: not run, and its job stops too.
struct TrialStopped {};

// Runs `call`, a step that needs `what` at `address`: its Error becomes HarnessLost, naming both.
template <typename Call>
auto needing(std::string_view what, const std::string& address, Call&& call) -> decltype(call()) {
  try {
    return call();
  } catch (const HarnessLost&) {
    throw;
  } catch (const Error& e) {
    std::string cause = e.what();
    std::replace(cause.begin(), cause.end(), '\n', ' ');  // one line
    while (!cause.empty() && cause.back() == ' ') cause.pop_back();
    std::string named = fmt::format("{} at {}: ", what, address);
    if (cause.starts_with(named)) cause.erase(0, named.size());  // said once is enough
    throw HarnessLost(named + cause);
  }
}

inline std::string postgres_at(const ChaosSetup& setup) { return bank::describe_conninfo(setup.conninfo); }

// A command to the shared Redis that the job needs: once more when the first fails, since a
// restart trial leaves the job's connection closed (the second reconnects).
void on_shared_redis(Job& job, const std::vector<std::string_view>& command);

// A server that clients lock on and the harness does not speak: etcd (ETCD_ENDPOINT) or PostgreSQL
// (PG_ENDPOINT), which must take a connection, ZooKeeper (ZOOKEEPER_CONNECT, which must answer
// `ruok` with `imok`) or Hazelcast's members (HAZELCAST_MEMBERS, each of which must take a
// connection), at the address the clients read from the same variable.
struct ClientServer {
  std::string_view what;
  std::string variable;  // where the adapters find its address: protocol::address_variable
  std::string_view say, expect;
};

// Those that `specs`' clients lock on, each once; on a cluster, not etcd or ZooKeeper (the jobs'
// own).
std::vector<ClientServer> client_servers(const std::vector<TrialSpec>& specs, Topology topology);
// Throws HarnessLost, naming the server and its address, when it does not answer within `timeout`.
void check_client_server(const ClientServer& server, std::chrono::milliseconds timeout);

// The campaign's own watch on the shared servers and its clients' servers, once a second while
// jobs run: a server that fails two probes in a row is lost (one failure may be a busy machine).
// The shared Redis is not watched while trials crash it on purpose.
class ServerWatch {
 public:
  ServerWatch(const ChaosSetup& setup, bool redis, std::vector<ClientServer> clients)
      : setup_(setup), redis_(redis), clients_(std::move(clients)) {}

  // The lost server, named, or "".
  std::string operator()();

 private:
  const ChaosSetup& setup_;
  bool redis_;
  std::vector<ClientServer> clients_;
  int failures_ = 0;
};

}  // namespace rlock::chaos
