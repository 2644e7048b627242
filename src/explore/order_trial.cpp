#include "explore/order_trial.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "explore/explorer.h"
#include "explore/walk_record.h"
#include "lab/log_dir.h"
#include "lab/run_log.h"
#include "nemesis/operation.h"
#include "rlock/error.h"

namespace rlock::explore {
namespace {

// The tokens: `text` itself, or the first line of the file it names.
std::string tokens_of(const std::string& text) {
  if (text.find_first_of(" \t") != std::string::npos || !std::filesystem::is_regular_file(text)) return text;
  std::ifstream in(text);
  std::string line;
  if (!std::getline(in, line)) throw UsageError(fmt::format("--replay-order: cannot read an order from {}", text));
  return line;
}

// The least bound the order takes: each worker's acquisitions beyond its first (refusals asked
// again, fenced-loop restarts) and extensions.
int bound_of(const Order& order) {
  std::map<std::size_t, int> acquires, extends;
  int bound = 0;
  for (const Move& move : order) {
    if (move.kind != Move::Kind::step) continue;
    if (move.step == lab::Step::acquire) bound = std::max(bound, ++acquires[move.worker] - 1);
    if (move.step == lab::Step::extend) bound = std::max(bound, ++extends[move.worker]);
  }
  return bound;
}

// The step a worker's event records, if one.
std::optional<lab::Step> step_of(lab::EventKind kind) {
  switch (kind) {
    case lab::EventKind::acquired:
    case lab::EventKind::busy: return lab::Step::acquire;
    case lab::EventKind::read: return lab::Step::read;
    case lab::EventKind::wrote:
    case lab::EventKind::fenced_write: return lab::Step::write;
    case lab::EventKind::released: return lab::Step::release;
    case lab::EventKind::watchdog_extended: return lab::Step::extend;
    default: return std::nullopt;
  }
}

}  // namespace

std::string recorded_order(std::vector<lab::Event> events) {
  lab::sort_by_time(events);
  std::string order;
  for (const lab::Event& event : events) {
    std::string token;
    if (std::optional<nemesis::Operation> op = nemesis::operation_of(event)) {
      token = nemesis::to_string(*op);
    } else if (std::optional<lab::Step> step = step_of(event.kind); step && event.who != "host") {
      token = fmt::format("{}:{}", event.who, lab::to_string(*step));
    }
    if (!token.empty()) order += (order.empty() ? "" : " ") + token;
  }
  return order;
}

OrderToReplay order_to_replay(lab::Strategy strategy, const std::string& text) {
  Order order = parse_order(tokens_of(text), kMaxWorkers);
  World world{strategy, 1, {}, bound_of(order)};
  for (const Move& move : order) {
    if (move.kind == Move::Kind::step || move.kind == Move::Kind::pause || move.kind == Move::Kind::resume) {
      world.workers = std::max(world.workers, static_cast<int>(move.worker) + 1);
    }
    switch (move.kind) {
      case Move::Kind::expire: world.events.insert(WorldEvent::expiry); break;
      case Move::Kind::pause:
      case Move::Kind::resume: world.events.insert(WorldEvent::pause); break;
      case Move::Kind::restart: world.events.insert(WorldEvent::restart); break;
      case Move::Kind::failover: world.events.insert(WorldEvent::failover); break;
      case Move::Kind::step: break;
    }
  }
  return OrderToReplay{world, order};
}

ReplayedOrder run_order_as_trial(const OrderToReplay& replay, const Servers& servers,
                                 const std::filesystem::path& lab_dir, long account, std::uint64_t seed) {
  std::filesystem::path chaos_dir = lab_dir / "chaos";
  Stage stage(replay.world, servers, lab::LogDir(chaos_dir / "stage"), account);
  WalkRecord record(replay.world, servers, chaos_dir, seed);
  std::size_t added = 0;
  Exploration walk;
  walk.orders = 1;
  OrderRun run = explore::replay(stage, replay.order, 0, added);
  record.add(run);
  if (run.losing()) {
    walk.losing = 1;
    walk.shortest = run;
  }
  std::filesystem::path kept = record.finish(walk);
  if (walk.shortest) return ReplayedOrder{*walk.shortest, record.run_dir(), kept};
  lab::write_events(stage.dir(), run.events, lab::Lang::en);
  steps_as_seconds(stage.dir(), run);
  return ReplayedOrder{run, record.run_dir(), stage.dir().root()};
}

}  // namespace rlock::explore
