// The small world `rlock explore` walks (docs/explore.md): two or three workers, A, B, C, each
// making one increment under one strategy's lock; the explorer's events (the lock's TTL running out,
// a worker paused and resumed, a Redis restart, a failover); the bound K on retries, restarts and
// extensions; and the moves an order is made of, with their text (`A:read`, `pause:A`, `expire`).
// The tokens are fixed by the spec the spin models share.
//
// Plain values and pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "lab/step_gate.h"
#include "lab/strategy.h"
#include "nemesis/operation.h"

namespace rlock::explore {

// The events an order may hold, as --events names them.
enum class WorldEvent { expiry, pause, restart, failover };
std::string_view to_string(WorldEvent event);
std::optional<WorldEvent> world_event_from(std::string_view name);

struct World {
  lab::Strategy strategy = lab::Strategy::ttl;
  int workers = 2;
  std::set<WorldEvent> events{WorldEvent::expiry, WorldEvent::pause};
  int bound = 2;

  bool has(WorldEvent event) const { return events.contains(event); }
};
inline constexpr int kMaxWorkers = 3;
inline constexpr int kMaxBound = 6;

// Worker i's name: A, B, C.
std::string worker_name(std::size_t worker);

// One token of an order.
struct Move {
  enum class Kind { step, expire, pause, resume, restart, failover };
  Kind kind = Kind::step;
  std::size_t worker = 0;  // step, pause, resume
  lab::Step step = lab::Step::acquire;

  bool operator==(const Move&) const = default;
};

std::string to_string(const Move& move);
// The nemesis's operation a move of the world's events is (nemesis/operation.h: its token is the
// move's); empty for a worker's step.
std::optional<nemesis::Operation> operation_of(const Move& move);
// The nemesis's operations the world's events make, by name, in the order of WorldEvent.
std::vector<std::string_view> operations_of(const World& world);
// The move a token names in a world of `workers` workers; empty for any other text.
std::optional<Move> move_from(std::string_view token, int workers);

using Order = std::vector<Move>;
std::string order_text(const Order& order);
// An order's text: tokens separated by single spaces (runs of blanks are taken as one). Throws
// UsageError naming the first token that is not one.
Order parse_order(std::string_view text, int workers);

// What spin's replay of a trail prints: the tokens of its `STEP <token>` lines, in order, other
// lines ignored. Throws UsageError for a token that is not one, more than kMaxTrailSteps steps, or
// none. read_trail reads the file first, at most kMaxTrailBytes, and throws UsageError when it
// cannot or when it is larger.
inline constexpr std::size_t kMaxTrailBytes = 1 << 20;
inline constexpr std::size_t kMaxTrailSteps = 1000;
Order order_from_trail(std::string_view text, int workers);
Order read_trail(const std::string& path, int workers);

}  // namespace rlock::explore
