// The sleeper floors of rlock bench: the least any Pub/Sub hand-off can cost on this machine. This process and a
// forked one, each asleep in poll(2) on a subscribed connection of its own, play ping-pong through PUBLISH: this one
// stamps the time and publishes to the other, which wakes and publishes back. Half a round is one PUBLISH, one
// delivery and one wake-up of a sleeping process, as a release that hands the lock over and a waiter woken holding
// it. The long floor's processes, and Redis, sleep between rounds as long as a hand-off's waiter: on a virtual
// machine a core idle that long wakes slower. Runs in a process with no other threads (it forks).

#include <thread>

#include <fmt/format.h>

#include "bench/bench.h"
#include "bench/handoff_sections.h"
#include "host/child.h"
#include "rlock/error.h"
#include "rlock/lock_key.h"

namespace rlock::bench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::seconds kAnswerLimit{5};
constexpr std::chrono::milliseconds kWarmUpRetry{1};

struct Shape {
  std::string_view name;
  // Between rounds: at the least, long enough for the returning process to be a sleeper, not a spinner.
  std::chrono::milliseconds gap;
  std::size_t min_rounds;
};

// The long gap is a section's mean work (kMaxWork / 2), the least a hand-off's waiter sleeps.
Shape shape_of(SleeperGap gap) {
  if (gap == SleeperGap::short_gap) return {"sleeper-floor", std::chrono::milliseconds{1}, 100};
  return {"sleeper-floor-long", kMaxWork / 2, 40};
}
constexpr std::string_view kStop = "stop";

std::string channel_of(const BenchSetup& setup, int player) {
  return fmt::format("{}:sleeper:{}", LockKey::for_account(setup.account).lock, player);
}

// The next message's payload on a subscribed connection; throws Error when none comes within kAnswerLimit.
std::string next_message(RedisConnection& subscription) {
  for (;;) {
    std::optional<Reply> reply = subscription.receive(kAnswerLimit);
    if (!reply) throw Error("rlock bench: sleeper floor: the other process stopped answering");
    if (reply->size() == 3 && reply->element(0).text() == "message") return reply->element(2).text();
  }
}

// The returner: sends every ball back until told to stop. Runs in a forked child.
int return_balls(const BenchSetup& setup) {
  RedisConnection subscription(setup.redis);
  subscription.checked({"SUBSCRIBE", channel_of(setup, 1)});
  RedisConnection redis(setup.redis);
  for (;;) {
    std::string ball = next_message(subscription);
    if (ball == kStop) return 0;
    redis.checked({"PUBLISH", channel_of(setup, 0), ball});
  }
}

}  // namespace

BenchCase measure_sleeper_floor(const BenchSetup& setup, SleeperGap gap) {
  Shape shape = shape_of(gap);
  RedisConnection subscription(setup.redis);
  subscription.checked({"SUBSCRIBE", channel_of(setup, 0)});
  RedisConnection redis(setup.redis);
  pid_t returner = host::fork_child([&] {
    try {
      return return_balls(setup);
    } catch (const std::exception& e) {
      fmt::print(stderr, "rlock: error: bench sleeper floor: {}\n", e.what());
      return 1;
    }
  });
  std::vector<double> half_rounds_us;
  try {
    auto ready_by = Clock::now() + kAnswerLimit;
    while (redis.checked({"PUBLISH", channel_of(setup, 1), "warm-up"}).integer() == 0) {
      if (Clock::now() > ready_by) throw Error("rlock bench: sleeper floor: the other process did not subscribe");
      std::this_thread::sleep_for(kWarmUpRetry);
    }
    next_message(subscription);
    auto soonest = Clock::now() + std::chrono::duration_cast<Clock::duration>(setup.seconds);
    auto latest = soonest + kOvertime;
    for (auto now = Clock::now(); now < latest && (now < soonest || half_rounds_us.size() < shape.min_rounds);
         now = Clock::now()) {
      std::this_thread::sleep_for(shape.gap);
      auto thrown = Clock::now();
      redis.checked({"PUBLISH", channel_of(setup, 1), "ball"});
      next_message(subscription);
      half_rounds_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - thrown).count() / 2);
    }
    redis.checked({"PUBLISH", channel_of(setup, 1), std::string(kStop)});
  } catch (const std::exception&) {
    host::kill_and_reap(returner);
    throw;
  }
  if (!host::reap(returner).succeeded()) throw Error("rlock bench: sleeper floor: the returning process failed");
  BenchCase result = BenchCase::from(std::string(shape.name), half_rounds_us, 0);
  result.floor_us = result.median_us;
  return result;
}

}  // namespace rlock::bench
