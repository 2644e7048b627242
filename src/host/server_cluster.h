// A cluster of three servers of rlock's own on 127.0.0.1, as services run etcd and ZooKeeper, for
// the chaos trials of `--topology cluster` (etcd_cluster.h, zookeeper_ensemble.h say how each kind
// starts, answers and elects). What they share lives here: the members' processes, started and
// waited for, paused, killed and started again, and stopped with the cluster.
//
// Owns the processes: killed and reaped when destroyed (a paused one too), and killed when the
// process that started them ends, however it ends. Member i's data lives in a fresh directory
// under /tmp that rlock made and removes, its log in the directory given. Not thread-safe.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "host/temp_dir.h"

namespace rlock::host {

// Throws Error, in one line naming `kind` ("etcd cluster") and the port, when one of the `ports`
// ports from base_port on 127.0.0.1 is taken: what a cluster's start checks first.
void check_ports_free(std::string_view kind, int base_port, int ports);

class ServerCluster {
 public:
  static constexpr std::size_t kMembers = 3;

  virtual ~ServerCluster();
  ServerCluster(const ServerCluster&) = delete;
  ServerCluster& operator=(const ServerCluster&) = delete;

  // Member i's client address, HOST:PORT, and its name (e1... for etcd, z1... for ZooKeeper).
  std::string endpoint(std::size_t member) const;
  std::string name(std::size_t member) const;
  pid_t pid(std::size_t member) const { return members_.at(member).pid; }

  // The member that leads, as the members that answer within `timeout` say (a paused one does not).
  virtual std::optional<std::size_t> leader(std::chrono::milliseconds timeout) const = 0;
  // Waits (bounded) until every member serves, after a pause or a restart: false if one does not
  // by then.
  bool healthy_within(std::chrono::milliseconds limit) const;

  // SIGSTOP and SIGCONT of member i: a pause that its peers and clients see as silence. Throws
  // Error for a member that is not running.
  void pause(std::size_t member);
  void resume(std::size_t member);
  // SIGKILL of member i (reaped), and its start again on its data, its ports and its log, as this
  // process's child; a start of a member that runs does nothing.
  void kill(std::size_t member);
  void start_again(std::size_t member);

 protected:
  struct Member {
    std::vector<std::string> args;
    std::filesystem::path log;
    pid_t pid = 0;
  };

  // `kind` names the servers in errors ("etcd cluster"), `prefix` the members (e: e1, e2, e3).
  // Throws Error, in one line, when one of the `ports` ports from base_port is taken.
  ServerCluster(std::string kind, char prefix, int base_port, int ports);

  // Starts every member of members() and waits (bounded) until each one serves. Throws Error, in
  // one line, naming the member and its log (no program, a member that did not form), after
  // stopping those it started. Called once by the constructor of the kind, members() filled.
  void form(std::chrono::seconds limit);
  // Whether member i answers as a member that serves (it has a leader).
  virtual bool serves(std::size_t member) const = 0;

  const std::filesystem::path& data_dir() const { return data_.path(); }
  int base_port() const { return base_port_; }
  std::vector<Member>& members() { return members_; }

 private:
  void start(Member& member);
  void signal(std::size_t member, int number);
  void stop_all();

  TempDir data_{"rlock-cluster"};
  std::string kind_;
  char prefix_;
  int base_port_;
  std::vector<Member> members_;
};

}  // namespace rlock::host
