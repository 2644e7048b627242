// A small network of network namespaces on this machine, where a partition is a real one: each
// named member (a server, a worker) gets a network namespace of its own with one interface, eth0,
// joined by a veth pair to a bridge that lives in the lab's own namespace. The machine's root
// namespace is never touched: no link, address, route or nftables rule is added there. A partition
// between two members is an nftables rule on the bridge (family bridge, hook forward) that drops
// every frame between their two ports, ARP included, so the packets leave the sender's TCP stack
// as usual and are lost on the way: the kernel's own retransmissions, backoff and timeouts are what
// a lock sees, not an error from its own machine.
//
// Addresses: member i (0-based, in the order given) has 127.77.0.(i+1)/24 on its eth0, in every lab
// (the labs do not share a namespace, so they may share addresses). A 127/8 address is loopback
// range: no router forwards it and every other host drops it as a martian, so nothing could leave the
// machine even if a link did; the bridge has no uplink anyway. Linux treats 127/8 on a non-loopback
// interface as martian too, unless route_localnet is set: the lab sets net.ipv4.conf.{all,eth0}.
// route_localnet=1 inside each member's namespace (both ends need it: without it connect() fails
// with EINVAL at the sender and the receiver drops the SYN). The member's eth0 route (/24) beats
// the loopback's 127.0.0.0/8 because a fresh namespace has no policy rule, so its local and main
// tables are one trie and the longest prefix wins. 127.0.0.1 stays the member's own loopback.
//
// Names: every namespace is `rlock-PID-N` (the bridge's) or `rlock-PID-N-MEMBER`, PID being the
// owning process and N its count of labs, so labs of different processes, or of one, never collide;
// on the bridge the port of MEMBER is `rlock-MEMBER` and the nftables table is `bridge rlock`, both
// inside the lab's own namespace, so they go with it.
//
// Ownership is never read from a name: creating a namespace writes a marker, /run/rlock/netns/NAME,
// holding the creating process's pid and the namespace's identity (the device and inode of its
// nsfs file). cleanup_leftovers() reads only those markers: it removes a namespace when its marker's
// process is gone and the namespace under that name is still the one the marker names, killing what
// still runs inside it first; a namespace a user made, whatever its name, is never touched (nor one
// an rlock killed between `ip netns add` and its marker: that one is left for the user to remove).
// The constructor calls it.
// Owns its namespaces (and with them every link and rule): created by the constructor, removed by
// the destructor, which first kills (SIGKILL) whatever still runs in them; the processes started by
// spawn() are still the caller's to reap. Not thread-safe; enter() is meant for a forked child.
#pragma once

#include <sys/types.h>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "host/child.h"

namespace rlock::host {

class NetnsBridge {
 public:
  // Every namespace and bridge port of a lab starts with this (a name, not a mark of ownership).
  static constexpr const char* kPrefix = "rlock-";
  // Where the markers of the namespaces rlock created are (one file a namespace, named after it).
  static constexpr const char* kMarkerDir = "/run/rlock/netns";

  // Removes leftovers (cleanup_leftovers()), then builds the lab for `members` (1 to 200 distinct
  // names of 1 to 9 characters among a-z, 0-9). Throws Error, leaving nothing behind, when not run as
  // root ("--netns needs root ..."), when `ip` or `nft` is missing (naming its Debian package), when
  // a namespace of its names exists already (someone else's: it is left alone), or when a command
  // fails (its stderr's last line); UsageError for a bad member name.
  explicit NetnsBridge(const std::vector<std::string>& members);
  ~NetnsBridge();
  NetnsBridge(const NetnsBridge&) = delete;
  NetnsBridge& operator=(const NetnsBridge&) = delete;

  // The member's address on the bridge, such as "127.77.0.1". Throws Error for an unknown member.
  const std::string& address(const std::string& member) const;
  // Its namespace's name, as `ip netns` lists it.
  std::string namespace_of(const std::string& member) const;

  // Runs `args` inside the member's namespace (through `ip netns exec`, which execs it: the pid is
  // the program's), as spawn_child() does.
  pid_t spawn(const std::string& member, const std::vector<std::string>& args, const SpawnOptions& options = {}) const;
  // Moves the calling thread into the member's namespace (setns): what it connects to from then on
  // goes through the bridge. For the body of a fork_child(). Throws Error when it cannot.
  void enter(const std::string& member) const;

  // Drops every frame between the two members, both ways; their other links stay. Idempotent.
  void partition(const std::string& a, const std::string& b);
  // Lets them talk again: the frames that follow pass (TCP retransmits what was lost). Idempotent.
  void heal(const std::string& a, const std::string& b);
  void heal_all();

  // Removes every namespace that a marker says rlock created, whose creating process is gone,
  // killing what runs inside; drops the markers of namespaces gone or replaced. Returns the names
  // removed. Needs root (throws Error otherwise).
  static std::vector<std::string> cleanup_leftovers();

 private:
  void build(const std::vector<std::string>& members);
  void create_namespaces(const std::vector<std::string>& names);
  void apply_rules() const;
  void teardown() noexcept;
  std::string port_of(const std::string& member) const;

  std::string lab_;                                    // rlock-PID-N, the bridge's namespace
  std::map<std::string, std::string> address_;         // member -> its address
  std::vector<std::string> namespaces_;                // created (and marked) so far, the bridge's first
  std::set<std::pair<std::string, std::string>> cut_;  // partitioned pairs, each sorted
};

}  // namespace rlock::host
