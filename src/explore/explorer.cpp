#include "explore/explorer.h"

#include <algorithm>
#include <chrono>
#include <random>

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock::explore {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Estimate estimate_orders(Stage& stage, int probes, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  Estimate estimate{.probes = probes};
  double ms = 0;
  for (int i = 0; i < probes; ++i) {
    double product = 1;
    OrderRun run = stage.run(
        [&](const std::vector<Move>& enabled, std::size_t) {
          product *= static_cast<double>(enabled.size());
          return std::uniform_int_distribution<std::size_t>(0, enabled.size() - 1)(random);
        },
        i, Walk::one_per_class);
    estimate.orders += product / probes;
    ms += run.judged.input.ms;
  }
  estimate.ms_per_order = probes > 0 ? ms / probes : 0;
  return estimate;
}

Exploration explore_all(Stage& stage, const std::function<void(const OrderRun&)>& each) {
  auto start = std::chrono::steady_clock::now();
  Exploration result;
  std::vector<std::size_t> prefix;
  for (;;) {
    auto order_start = std::chrono::steady_clock::now();
    OrderRun run = stage.run(
        [&](const std::vector<Move>& enabled, std::size_t depth) -> std::size_t {
          if (depth >= prefix.size()) return 0;
          if (prefix[depth] >= enabled.size()) {
            throw Error(
                fmt::format("order {} did not repeat its first {} moves: {} moves enabled at move {} ({}); "
                            "is another run using the same account?",
                            result.orders + 1, prefix.size(), enabled.size(), depth + 1, order_text(enabled)));
          }
          return prefix[depth];
        },
        static_cast<int>(result.orders), Walk::one_per_class);
    result.stage_seconds += seconds_since(order_start);
    ++result.orders;
    if (run.losing()) {
      ++result.losing;
      if (!result.shortest || run.order.size() < result.shortest->order.size()) result.shortest = run;
    }
    each(run);
    // The deepest point with a move not yet tried.
    std::size_t depth = run.picks.size();
    while (depth > 0 && run.picks[depth - 1] + 1 >= run.widths[depth - 1]) --depth;
    if (depth == 0) break;
    prefix.assign(run.picks.begin(), run.picks.begin() + static_cast<std::ptrdiff_t>(depth));
    ++prefix.back();
  }
  result.seconds = seconds_since(start);
  return result;
}

OrderRun replay(Stage& stage, const Order& order, int number, std::size_t& added) {
  added = 0;
  return stage.run(
      [&](const std::vector<Move>& enabled, std::size_t depth) -> std::size_t {
        if (depth < order.size()) {
          // By token: an enabled expire carries its holder, which the order's text does not name.
          auto it = std::find_if(enabled.begin(), enabled.end(),
                                 [&](const Move& m) { return to_string(m) == to_string(order[depth]); });
          if (it == enabled.end()) {
            throw UsageError(fmt::format("move {} of the order, {}, is not enabled there (enabled: {})", depth + 1,
                                         to_string(order[depth]), order_text(enabled)));
          }
          return static_cast<std::size_t>(it - enabled.begin());
        }
        ++added;
        auto it = std::find_if(enabled.begin(), enabled.end(), [](const Move& m) {
          return (m.kind == Move::Kind::step && m.step != lab::Step::extend) || m.kind == Move::Kind::resume;
        });
        return it == enabled.end() ? 0 : static_cast<std::size_t>(it - enabled.begin());
      },
      number);
}

}  // namespace rlock::explore
