// An etcd cluster of rlock's own: three members on 127.0.0.1, as services run etcd, for the chaos
// trials of `--topology cluster`. Member i (named e1, e2, e3) serves clients on base_port + i and its
// peers on base_port + 3 + i; its data lives in a fresh directory under /tmp that rlock made and
// removes, its log in the directory given.
//
// Owns the processes: started and forming one cluster once constructed, killed and reaped when
// destroyed (a paused one too), and killed when the process that started them ends, however it
// ends. Not thread-safe.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "host/temp_dir.h"

namespace rlock::host {

class EtcdCluster {
 public:
  static constexpr int kMembers = 3;
  static constexpr int kPorts = 2 * kMembers;  // a client and a peer port a member

  // Starts the members and waits (bounded) until each answers healthy and one leads. Throws Error,
  // in one line, naming the member and its log: a port taken, no etcd, a member that did not form.
  EtcdCluster(int base_port, const std::filesystem::path& log_dir);
  ~EtcdCluster();
  EtcdCluster(const EtcdCluster&) = delete;
  EtcdCluster& operator=(const EtcdCluster&) = delete;

  // "127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3", as a client's ETCD_ENDPOINT lists them.
  std::string endpoints() const;
  // Member i's client address, HOST:PORT, and its name.
  std::string endpoint(std::size_t member) const;
  std::string name(std::size_t member) const;
  pid_t pid(std::size_t member) const { return members_[member].pid; }

  // The member that leads, as the members that answer within `timeout` say (a paused one does not).
  std::optional<std::size_t> leader(std::chrono::milliseconds timeout) const;
  // Waits (bounded) until every member is healthy again, after a pause or a restart: false if one
  // is not by then.
  bool healthy_within(std::chrono::milliseconds limit) const;

  // SIGSTOP and SIGCONT of member i: a pause that its peers and clients see as silence. Throws
  // Error for a member that is not running.
  void pause(std::size_t member);
  void resume(std::size_t member);
  // SIGKILL of member i (reaped), and its start again on its data, its ports and its log, as this
  // process's child; a start of a member that runs does nothing.
  void kill(std::size_t member);
  void start_again(std::size_t member);

 private:
  struct Member {
    std::vector<std::string> args;
    std::filesystem::path log;
    pid_t pid = 0;
  };
  void start(Member& member);
  void signal(std::size_t member, int number);
  void stop_all();

  TempDir data_{"rlock-etcd"};
  int base_port_;
  std::vector<Member> members_;
};

}  // namespace rlock::host
