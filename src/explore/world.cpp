#include "explore/world.h"

#include <fstream>
#include <iterator>

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

// The bare tokens: the events that name no worker.
constexpr util::NameTable<Move::Kind, 3> kBare{
    {{Move::Kind::expire, "expire"}, {Move::Kind::restart, "restart"}, {Move::Kind::failover, "failover"}}};

std::optional<std::size_t> worker_of(std::string_view name, int workers) {
  if (name.size() != 1 || name[0] < 'A' || name[0] >= 'A' + workers) return std::nullopt;
  return static_cast<std::size_t>(name[0] - 'A');
}

}  // namespace

std::string_view to_string(WorldEvent event) { return util::name_in(kEvents, event); }
std::optional<WorldEvent> world_event_from(std::string_view name) { return util::value_in(kEvents, name); }

std::string worker_name(std::size_t worker) { return std::string(1, static_cast<char>('A' + worker)); }

std::string to_string(const Move& move) {
  switch (move.kind) {
    case Move::Kind::step: return fmt::format("{}:{}", worker_name(move.worker), lab::to_string(move.step));
    case Move::Kind::pause: return "pause:" + worker_name(move.worker);
    case Move::Kind::resume: return "resume:" + worker_name(move.worker);
    default: return std::string(util::name_in(kBare, move.kind));
  }
}

std::optional<Move> move_from(std::string_view token, int workers) {
  if (std::optional<Move::Kind> bare = util::value_in(kBare, token)) return Move{*bare};
  auto colon = token.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  std::string_view left = token.substr(0, colon), right = token.substr(colon + 1);
  if (left == "pause" || left == "resume") {
    std::optional<std::size_t> w = worker_of(right, workers);
    if (!w) return std::nullopt;
    return Move{left == "pause" ? Move::Kind::pause : Move::Kind::resume, *w};
  }
  std::optional<std::size_t> w = worker_of(left, workers);
  std::optional<lab::Step> step = lab::step_from(right);
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
