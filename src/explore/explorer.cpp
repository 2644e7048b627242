#include "explore/explorer.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <random>
#include <thread>

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

double Exploration::floor_ratio() const {
  if (floor_orders == 0 || orders == 0 || floor_seconds <= 0) return 0;
  return (seconds / static_cast<double>(orders)) / (floor_seconds / floor_orders);
}

namespace {

using Picks = std::vector<std::size_t>;

// A walk on several stages at once. The orders are the leaves of a tree (a pick at each point), the
// walk's order their picks' lexicographic order; a subtree (the orders whose picks begin with a
// prefix) is walked depth-first by one stage, which gives away the untried moves of its shallowest
// point to a stage that waits for work. The runs are handed on in the walk's order: a run is
// handed on once no stage can still run a lesser order.
class SharedWalk {
 public:
  SharedWalk(std::vector<Stage*> stages, const std::function<void(const OrderRun&)>& each, int floor_every)
      : stages_(std::move(stages)),
        each_(each),
        floor_every_(floor_every),
        at_(stages_.size()),
        walked_(stages_.size(), 0) {
    pool_.push_back({});
  }

  Exploration walk() {
    auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (std::size_t k = 0; k < stages_.size(); ++k) threads.emplace_back([this, k] { walk_on(k); });
    for (std::thread& t : threads) t.join();
    if (error_) std::rethrow_exception(error_);
    double jobs = static_cast<double>(stages_.size());
    result_.seconds = seconds_since(start) - result_.floor_seconds / jobs;
    result_.stage_seconds /= jobs;
    return std::move(result_);
  }

 private:
  void walk_on(std::size_t k) {
    try {
      Picks prefix;
      while (take(k, prefix)) walk_subtree(k, std::move(prefix));
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!error_) error_ = std::current_exception();
      changed_.notify_all();
    }
  }

  // A subtree for stage k to walk; false once the walk is over (or failed).
  bool take(std::size_t k, Picks& prefix) {
    std::unique_lock lock(mutex_);
    at_[k].reset();
    ++idle_;
    hand_on();
    changed_.notify_all();
    changed_.wait(lock, [&] { return error_ || !pool_.empty() || idle_ == stages_.size(); });
    if (error_ || pool_.empty()) return false;
    --idle_;
    prefix = std::move(pool_.back());
    pool_.pop_back();
    at_[k] = prefix;
    return true;
  }

  void walk_subtree(std::size_t k, Picks prefix) {
    Stage& stage = *stages_[k];
    std::size_t fixed = prefix.size();  // the points above which this stage moves no more
    for (;;) {
      auto order_start = std::chrono::steady_clock::now();
      OrderRun run = stage.run(
          [&](const std::vector<Move>& enabled, std::size_t depth) -> std::size_t {
            if (depth >= prefix.size()) return 0;
            if (prefix[depth] >= enabled.size()) {
              throw Error(fmt::format(
                  "an order did not repeat its first {} moves: {} moves enabled at move {} ({}); is another run "
                  "using the same account?",
                  prefix.size(), enabled.size(), depth + 1, order_text(enabled)));
            }
            return prefix[depth];
          },
          0, Walk::one_per_class);
      double run_seconds = seconds_since(order_start);
      double floor = ++walked_[k] % floor_every_ == 0 ? stage.floor_seconds(1) : -1;
      std::lock_guard lock(mutex_);
      if (error_) return;
      result_.stage_seconds += run_seconds;
      if (floor >= 0) {
        result_.floor_seconds += floor;
        ++result_.floor_orders;
      }
      auto untried = [&](std::size_t d) { return run.picks[d] + 1 < run.widths[d]; };
      std::size_t deepest = run.picks.size();  // one past the deepest point with a move not yet tried
      while (deepest > fixed && !untried(deepest - 1)) --deepest;
      Picks next;
      if (deepest > fixed) {
        if (idle_ > 0 && pool_.empty()) {
          std::size_t shallowest = fixed;
          while (!untried(shallowest)) ++shallowest;
          // The deepest point's next move stays here; the rest of the shallowest point's go.
          std::size_t first = run.picks[shallowest] + (shallowest + 1 == deepest ? 2 : 1);
          for (std::size_t pick = run.widths[shallowest]; pick-- > first;) {
            Picks given(run.picks.begin(), run.picks.begin() + static_cast<std::ptrdiff_t>(shallowest));
            given.push_back(pick);
            pool_.push_back(std::move(given));
          }
          fixed = shallowest + 1;
          changed_.notify_all();
        }
        next.assign(run.picks.begin(), run.picks.begin() + static_cast<std::ptrdiff_t>(deepest));
        ++next.back();
        at_[k] = next;
      } else {
        at_[k].reset();
      }
      if (stages_.size() > 1) {
        run.events = {};  // most of a run's memory; the shortest is run again (explore_all)
        run.started = {};
      }
      Picks picks = run.picks;
      ended_.emplace(std::move(picks), std::move(run));
      hand_on();
      if (!at_[k]) return;
      prefix = std::move(next);
    }
  }

  // Hands on the ended runs that no stage can still precede; under the lock.
  void hand_on() {
    std::optional<Picks> least;
    auto lower = [&](const Picks& p) {
      if (!least || p < *least) least = p;
    };
    for (const std::optional<Picks>& at : at_) {
      if (at) lower(*at);
    }
    for (const Picks& p : pool_) lower(p);
    while (!ended_.empty() && (!least || ended_.begin()->first < *least)) {
      OrderRun& run = ended_.begin()->second;
      run.judged.input.spec.number = static_cast<int>(result_.orders);
      ++result_.orders;
      if (run.losing()) {
        ++result_.losing;
        if (!result_.shortest || run.order.size() < result_.shortest->order.size()) result_.shortest = run;
      }
      each_(run);
      ended_.erase(ended_.begin());
    }
  }

  std::vector<Stage*> stages_;
  const std::function<void(const OrderRun&)>& each_;
  int floor_every_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Picks> pool_;               // subtrees no stage took yet
  std::vector<std::optional<Picks>> at_;  // each stage's next order's prefix: its orders to come are not less
  std::map<Picks, OrderRun> ended_;       // runs not handed on yet
  std::size_t idle_ = 0;
  std::vector<long long> walked_;  // by each stage, its own to count
  Exploration result_;
  std::exception_ptr error_;
};

}  // namespace

Exploration explore_all(const std::vector<Stage*>& stages, const std::function<void(const OrderRun&)>& each,
                        int floor_every) {
  Exploration result = SharedWalk(stages, each, floor_every).walk();
  if (result.floor_orders < kMinFloorOrders) {
    result.floor_seconds += stages.front()->floor_seconds(kMinFloorOrders - result.floor_orders);
    result.floor_orders = kMinFloorOrders;
  }
  if (stages.size() > 1 && result.shortest) {
    // Its log names the account of the stage that ran it: run again on the first stage's.
    const Picks& picks = result.shortest->picks;
    OrderRun again = stages.front()->run([&](const std::vector<Move>&, std::size_t depth) { return picks[depth]; },
                                         result.shortest->judged.input.spec.number, Walk::one_per_class);
    if (again.picks != picks || again.losing() != result.shortest->losing()) {
      throw Error("the shortest losing order did not repeat itself on the walk's first account");
    }
    result.shortest = std::move(again);
  }
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
