#include "chaos/generator.h"

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "util/seeded_random.h"

namespace rlock::chaos {
namespace {

std::uint64_t splitmix(std::uint64_t x) { return util::SeededRandom::mix(x + 0x9e3779b97f4a7c15ULL); }

}  // namespace

Schedule schedule_for(const TrialSpec& spec, const ChaosSetup& setup) {
  // Every draw is SeededRandom's, whose mappings are written out: the same on every compiler and
  // standard library (schedule_test's golden file holds the first trials of seed 2026).
  util::SeededRandom rng(splitmix(
      setup.seed ^ splitmix(util::fnv1a(row_name(spec)) ^
                            splitmix(util::fnv1a(to_string(spec.fault)) + static_cast<std::uint64_t>(spec.number)))));
  auto uniform = [&](double low, double high) { return rng.real(low, high); };
  double ttl_s = std::chrono::duration<double>(setup.ttl).count();
  Schedule schedule;
  auto count = static_cast<int>(rng.integer(2, 4));
  if (setup.trial_workers() != 0) count = setup.trial_workers();  // drawn all the same: the other draws stay the seed's
  for (int i = 0; i < count; ++i) {
    schedule.workers.push_back(lab::WorkerPlan{.name = std::string(1, static_cast<char>('A' + i)),
                                               .amount = rng.integer(1, 100),
                                               .delay_seconds = uniform(0, 0.05),
                                               .work_seconds = uniform(kMinWorkSeconds, kMaxWorkSeconds)});
  }
  auto first = std::min_element(schedule.workers.begin(), schedule.workers.end(),
                                [](const auto& a, const auto& b) { return a.delay_seconds < b.delay_seconds; });
  schedule.target = static_cast<std::size_t>(first - schedule.workers.begin());
  // The fault's draws come around the pause's length, which every trial draws: the target's work
  // before it, the rest after it (faults/fault.h).
  ScheduleDraw draw{rng, schedule, ttl_s};
  spec.fault->draw_work(draw);
  schedule.pause_s = ttl_s * uniform(1.0, 2.5);
  spec.fault->draw_rest(draw);
  return schedule;
}

}  // namespace rlock::chaos
