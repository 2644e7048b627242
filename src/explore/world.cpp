#include "explore/world.h"

#include <fstream>
#include <iterator>
#include <utility>

#include <fmt/format.h>

#include "rlock/error.h"
#include "util/enum_names.h"
#include "util/printable.h"

namespace rlock::explore {
namespace {

constexpr util::NameTable<WorldEvent, 4> kEvents{{{WorldEvent::expiry, "expiry"},
                                                  {WorldEvent::pause, "pause"},
                                                  {WorldEvent::restart, "restart"},
                                                  {WorldEvent::failover, "failover"}}};

// The nemesis's operations that the world's moves are, and the operation of each event.
constexpr std::pair<Move::Kind, nemesis::OpKind> kOperations[] = {{Move::Kind::expire, nemesis::OpKind::expire},
                                                                  {Move::Kind::pause, nemesis::OpKind::pause},
                                                                  {Move::Kind::resume, nemesis::OpKind::resume},
                                                                  {Move::Kind::restart, nemesis::OpKind::restart},
                                                                  {Move::Kind::failover, nemesis::OpKind::failover}};
constexpr std::pair<WorldEvent, nemesis::OpKind> kEventOperations[] = {
    {WorldEvent::expiry, nemesis::OpKind::expire},
    {WorldEvent::pause, nemesis::OpKind::pause},
    {WorldEvent::restart, nemesis::OpKind::restart},
    {WorldEvent::failover, nemesis::OpKind::failover}};

std::optional<std::size_t> worker_of(std::string_view name, int workers) {
  if (name.size() != 1 || name[0] < 'A' || name[0] >= 'A' + workers) return std::nullopt;
  return static_cast<std::size_t>(name[0] - 'A');
}

}  // namespace

std::string_view to_string(WorldEvent event) { return util::name_in(kEvents, event); }
std::optional<WorldEvent> world_event_from(std::string_view name) { return util::value_in(kEvents, name); }

std::string worker_name(std::size_t worker) { return std::string(1, static_cast<char>('A' + worker)); }

std::string to_string(const Move& move) {
  if (std::optional<nemesis::Operation> op = operation_of(move)) return nemesis::to_string(*op);
  return fmt::format("{}:{}", worker_name(move.worker), lab::to_string(move.step));
}

std::optional<nemesis::Operation> operation_of(const Move& move) {
  for (auto [kind, op] : kOperations) {
    if (kind == move.kind) return nemesis::Operation{op, nemesis::acts_on_worker(op) ? worker_name(move.worker) : ""};
  }
  return std::nullopt;
}

std::vector<std::string_view> operations_of(const World& world) {
  std::vector<std::string_view> names;
  for (auto [event, op] : kEventOperations) {
    if (world.has(event)) names.push_back(nemesis::to_string(op));
  }
  return names;
}

std::optional<Move> move_from(std::string_view token, int workers) {
  if (std::optional<nemesis::Operation> op = nemesis::operation_from(token)) {
    for (auto [kind, op_kind] : kOperations) {
      if (op_kind != op->kind) continue;
      if (!nemesis::acts_on_worker(op_kind)) return Move{kind};
      std::optional<std::size_t> w = worker_of(op->target, workers);
      if (!w) return std::nullopt;
      return Move{kind, *w};
    }
    return std::nullopt;
  }
  auto colon = token.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  std::optional<std::size_t> w = worker_of(token.substr(0, colon), workers);
  std::optional<lab::Step> step = lab::step_from(token.substr(colon + 1));
  if (!w || !step) return std::nullopt;
  return Move{Move::Kind::step, *w, *step};
}

std::string order_text(const Order& order) {
  std::string text;
  for (const Move& move : order) {
    if (!text.empty()) text += ' ';
    text += to_string(move);
  }
  return text;
}

Order parse_order(std::string_view text, int workers) {
  Order order;
  while (!text.empty()) {
    auto start = text.find_first_not_of(" \t\n");
    if (start == std::string_view::npos) break;
    text.remove_prefix(start);
    std::string_view token = text.substr(0, text.find_first_of(" \t\n"));
    text.remove_prefix(token.size());
    std::optional<Move> move = move_from(token, workers);
    if (!move) {
      throw UsageError(
          fmt::format("'{}' is not a step or event of the world (docs/explore.md)", util::printable(token)));
    }
    order.push_back(*move);
  }
  if (order.empty()) throw UsageError("the order is empty");
  return order;
}

Order order_from_trail(std::string_view text, int workers) {
  std::string steps;
  std::size_t count = 0, line_number = 0;
  while (!text.empty()) {
    std::string_view line = text.substr(0, text.find('\n'));
    text.remove_prefix(std::min(text.size(), line.size() + 1));
    ++line_number;
    // spin indents a process's printf; -p also echoes the statement (`[printf('STEP ...')]`), skipped here
    line.remove_prefix(std::min(line.size(), line.find_first_not_of(" \t")));
    if (!line.starts_with("STEP ")) continue;
    std::string_view token = line.substr(5);
    token = token.substr(0, token.find_first_of(" \t\r"));
    if (!move_from(token, workers)) {
      throw UsageError(
          fmt::format("trail line {}: '{}' is not a step or event of the world", line_number, util::printable(token)));
    }
    if (++count > kMaxTrailSteps) throw UsageError(fmt::format("the trail holds more than {} steps", kMaxTrailSteps));
    steps += std::string(token) + ' ';
  }
  if (count == 0) throw UsageError("the trail holds no STEP line");
  return parse_order(steps, workers);
}

Order read_trail(const std::string& path, int workers) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(fmt::format("cannot read the trail {}", path));
  std::string text(kMaxTrailBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxTrailBytes) throw UsageError(fmt::format("the trail {} is larger than 1 MiB", path));
  return order_from_trail(text, workers);
}

}  // namespace rlock::explore
