#include "explore/summary.h"

#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "checker/checkers.h"

namespace rlock::explore {
namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The verdict of an order, in a line: what the checkers found.
std::string verdict_line(const OrderRun& run) {
  const checker::TrialResult& r = run.judged.result;
  if (!run.losing()) {
    return fmt::format("holds: balance {}, no money lost, no overlap", run.judged.input.final_balance.value_or(0));
  }
  std::string text = "LOSES:";
  if (r.lost.validity == checker::Validity::invalid) text += " lost update (" + r.lost.detail + ")";
  if (r.overlaps.validity == checker::Validity::invalid) text += " overlap (" + r.overlaps.detail + ")";
  return text;
}

double orders_per_second(const Exploration& walk) {
  return walk.seconds > 0 ? static_cast<double>(walk.orders) / walk.seconds : 0;
}

double floor_per_second(const Exploration& walk) {
  return walk.floor_seconds > 0 ? walk.floor_orders / walk.floor_seconds : 0;
}

}  // namespace

std::string events_text(const World& world) {
  std::string text;
  for (WorldEvent event : world.events) text += (text.empty() ? "" : ",") + std::string(to_string(event));
  return text.empty() ? "none" : text;
}

void print_order_run(const OrderRun& run, const std::filesystem::path& dir) {
  fmt::print("order ({} moves): {}\n", run.order.size(), order_text(run.order));
  fmt::print("{}", read_text(dir / "run.log"));
  fmt::print("verdict: {}\n", verdict_line(run));
}

void print_walk(const Explored& e) {
  const Exploration& w = e.walk;
  fmt::print(
      "{}: {} worker{}, events {}, bound {}: {} orders, {} losing (money lost or overlap); {:.1f} s, {:.0f} "
      "orders/s (estimated {:.0f})\n",
      lab::to_string(e.world.strategy), e.world.workers, e.world.workers == 1 ? "" : "s", events_text(e.world),
      e.world.bound, w.orders, w.losing, w.seconds, orders_per_second(w), e.estimate.orders);
  fmt::print(
      "floor: {:.0f} orders/s, their round trips back to back; the walk took {:.1f}x the floor's time an order\n",
      floor_per_second(w), w.floor_ratio());
  if (w.shortest) {
    fmt::print("shortest losing order, a step a second:\n");
    print_order_run(*w.shortest, e.shortest_dir);
    fmt::print("timeline: {}\n", (e.shortest_dir / "timeline.svg").string());
  } else {
    fmt::print("no order loses money or overlaps within bound {}\n", e.world.bound);
  }
  fmt::print("run: {} (rlock analyze DIR, rlock report DIR)\n", e.run_dir.string());
}

nlohmann::json explore_json(const std::vector<Explored>& walks) {
  nlohmann::json explored = nlohmann::json::array();
  for (const Explored& e : walks) {
    const Exploration& w = e.walk;
    nlohmann::json shortest = nullptr;
    if (w.shortest) {
      shortest = nlohmann::json::array();
      for (const Move& move : w.shortest->order) shortest.push_back(to_string(move));
    }
    explored.push_back({{"strategy", lab::to_string(e.world.strategy)},
                        {"workers", e.world.workers},
                        {"events", events_text(e.world)},
                        {"bound", e.world.bound},
                        {"estimated_orders", e.estimate.orders},
                        {"orders", w.orders},
                        {"losing", w.losing},
                        {"shortest", shortest},
                        {"seconds", w.seconds},
                        {"orders_per_second", orders_per_second(w)},
                        {"stage_seconds", w.stage_seconds},
                        {"run_dir", e.run_dir.string()},
                        {"floor_orders_per_second", floor_per_second(w)},
                        {"floor_ratio", w.floor_ratio()}});
  }
  return {{"format", kExploreFileFormat}, {"explored", explored}};
}

}  // namespace rlock::explore
