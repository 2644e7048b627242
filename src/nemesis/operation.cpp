#include "nemesis/operation.h"

#include "util/enum_names.h"

namespace rlock::nemesis {
namespace {

constexpr util::NameTable<OpKind, 14> kKinds{{{OpKind::pause, "pause"},
                                              {OpKind::resume, "resume"},
                                              {OpKind::kill, "kill"},
                                              {OpKind::partition, "partition"},
                                              {OpKind::heal, "heal"},
                                              {OpKind::expire, "expire"},
                                              {OpKind::restart, "restart"},
                                              {OpKind::failover, "failover"},
                                              {OpKind::stall, "stall"},
                                              {OpKind::unstall, "unstall"},
                                              {OpKind::pause_member, "pause-member"},
                                              {OpKind::resume_member, "resume-member"},
                                              {OpKind::kill_member, "kill-member"},
                                              {OpKind::start_member, "start-member"}}};

}  // namespace

std::string_view to_string(OpKind kind) { return util::name_in(kKinds, kind); }
std::optional<OpKind> op_kind_from(std::string_view name) { return util::value_in(kKinds, name); }

bool acts_on_worker(OpKind kind) {
  switch (kind) {
    case OpKind::pause:
    case OpKind::resume:
    case OpKind::kill:
    case OpKind::partition:
    case OpKind::heal: return true;
    default: return false;
  }
}

bool acts_on_member(OpKind kind) {
  switch (kind) {
    case OpKind::pause_member:
    case OpKind::resume_member:
    case OpKind::kill_member:
    case OpKind::start_member: return true;
    default: return false;
  }
}

std::string to_string(const Operation& op) {
  std::string text(to_string(op.kind));
  return acts_on_worker(op.kind) || acts_on_member(op.kind) ? text + ':' + op.target : text;
}

std::optional<Operation> operation_from(std::string_view token) {
  auto colon = token.find(':');
  std::optional<OpKind> kind = util::value_in(kKinds, token.substr(0, colon));
  if (!kind) return std::nullopt;
  if (!acts_on_worker(*kind) && !acts_on_member(*kind)) {
    if (colon != std::string_view::npos) return std::nullopt;
    return Operation{*kind, {}};
  }
  if (colon == std::string_view::npos || colon + 1 == token.size()) return std::nullopt;
  return Operation{*kind, std::string(token.substr(colon + 1))};
}

std::optional<Operation> operation_of(const lab::Event& event) {
  auto op = event.fields.find("op");
  if (op == event.fields.end() || !op->is_string()) return std::nullopt;
  return operation_from(op->get<std::string>());
}

std::vector<Operation> operations_in(const std::vector<lab::Event>& events) {
  std::vector<Operation> ops;
  for (const lab::Event& event : events) {
    if (std::optional<Operation> op = operation_of(event)) ops.push_back(*op);
  }
  return ops;
}

}  // namespace rlock::nemesis
