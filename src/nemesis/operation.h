// A nemesis operation as one value, as Jepsen's nemesis takes `{:f :start-partition}`: its kind and
// its target. A chaos fault's strike and heal and an explorer's move emit the same values, which
// nemesis.h carries out and the run log records under their names (the "op" field of the host's
// event): `pause:A`, `resume:A`, `kill:A`, `partition:A`, `heal:A` act on a worker; `expire`,
// `restart`, `failover`, `stall`, `unstall` on the Redis the lock lives on; `pause-member:e2`,
// `resume-member:e2`, `kill-member:e2`, `start-member:e2` on a member of an etcd cluster (e1...) or a ZooKeeper
// ensemble (z1...). The text is the token an explored order writes (docs/explore.md).
//
// Plain values and pure functions; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lab/event.h"

namespace rlock::nemesis {

enum class OpKind {
  pause,
  resume,
  kill,
  partition,
  heal,
  expire,
  restart,
  failover,
  stall,
  unstall,
  pause_member,
  resume_member,
  kill_member,
  start_member
};

struct Operation {
  OpKind kind = OpKind::pause;
  std::string target{};  // the worker's or member's name for the kinds that act on one; empty otherwise

  bool operator==(const Operation&) const = default;
};

std::string_view to_string(OpKind kind);
std::optional<OpKind> op_kind_from(std::string_view name);
// Whether the kind acts on one worker (its token is KIND:WORKER), or on one member of a cluster
// (KIND:MEMBER).
bool acts_on_worker(OpKind kind);
bool acts_on_member(OpKind kind);

// "pause:A", "expire".
std::string to_string(const Operation& op);
// The operation a token names; empty for any other text (a worker's name is any non-empty text).
std::optional<Operation> operation_from(std::string_view token);

// The operation an event of the run log carried out, by its "op" field; empty for other events.
std::optional<Operation> operation_of(const lab::Event& event);
// The operations of a run, in the order of its events.
std::vector<Operation> operations_in(const std::vector<lab::Event>& events);

}  // namespace rlock::nemesis
