// What several faults share: their n/a reasons, the strike on an etcd cluster's leader,
// the record of a network act, the tests that the target read and that its connections were held
// as long as the schedule said, and libfaketime's path for the faults on a client's clock.
//
// Functions; a strike runs on its trial's thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <optional>

#include "chaos/faults/fault.h"
#include "lab/run_log.h"
#include "nemesis/nemesis.h"

namespace rlock::chaos {

// The PostgreSQL strategies never use Redis: its restart, failover, stall or a partition from it
// cannot touch them.
std::string_view redis_unused(lab::Strategy strategy);
// A client whose lock lives on etcd or ZooKeeper uses no Redis either.
std::string_view redis_unused(protocol::ServerKind kind);
// The proxies stand between a client and its Redis, etcd or ZooKeeper, not its PostgreSQL or
// Hazelcast: a fault of the proxies cannot reach a lock that lives there.
std::string_view not_behind_proxies(protocol::ServerKind kind);
// A fault of the members of an etcd cluster or a ZooKeeper ensemble cannot reach a lock that lives
// elsewhere.
std::string_view no_cluster_of(protocol::ServerKind kind);
// pg-atomic holds nothing and reads nothing before its one statement: a pause, a slow worker or a
// skewed clock cannot matter to it.
std::string_view no_lock_held(lab::Strategy strategy);

// What the nemesis's operations act on in `trial`: its workers (signalled through `workers`), its
// log and key, the job's Redis, the trial's failover pair, the Redis of its own (the first of the
// job's Redlock servers when the lock lives on three), and the job's etcd cluster.
nemesis::Targets nemesis_targets(TrialContext& trial, Participants& workers);

// A strike that carries out `strike` and is healed by `heal` (none: nothing heals it).
Strike strike_with(nemesis::Targets targets, nemesis::Operation strike, std::optional<nemesis::Operation> heal = {});

// A strike on the member that leads the trial's etcd cluster or ZooKeeper ensemble, by `strike` (pause-member,
// kill-member), healed by `heal` (resume-member, start-member) once the cluster is healthy again
// (or 5 s passed): the run log says which member led before the strike and which after the heal
// (cluster_leader). No leader answering: nothing struck.
Strike strike_leader(nemesis::Targets targets, nemesis::OpKind strike, nemesis::OpKind heal);
// The same on the first member that does not lead (e2 when e1 leads), which keeps the leader's
// quorum with the other; the run log says which member led before and after too.
Strike strike_follower(nemesis::Targets targets, nemesis::OpKind strike, nemesis::OpKind heal);
// The same on worker `worker`'s own member, first in the list it is given (member worker mod 3),
// whether it leads or not.
Strike strike_own_member(nemesis::Targets targets, std::size_t worker, nemesis::OpKind strike, nemesis::OpKind heal);
// Whether the run log has a signal of the nemesis (SIGSTOP, SIGKILL) to a member of the cluster.
bool member_signalled(const std::vector<lab::Event>& events, std::string_view signal);

// The target worker's name.
const std::string& target_name(const TrialContext& trial);

// Records a network act of the nemesis on `worker`'s connections.
void record_network(const lab::RunLog& log, const std::string& worker, const std::string& action);

// Whether the trial's target read (slow and clock-skew strike nothing: their mark is the read).
bool target_read(const Schedule& schedule, const std::vector<lab::Event>& events);

// Whether the nemesis held the target's connections the schedule's whole pause: its first network
// act on them and the next (the heal) at least pause_s apart. A heal that came sooner, when every
// worker was done, did not hold them that long.
bool held_whole_pause(const Schedule& schedule, const std::vector<lab::Event>& events);

// Where Debian's libfaketime package puts its library, for the architectures rlock builds on.
std::string libfaketime();

}  // namespace rlock::chaos
