#include "bench/handoff_sections.h"

#include <algorithm>

#include "util/stats.h"

namespace rlock::bench {

long long nanoseconds(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

BenchCase summarize_handoffs(std::string name, std::vector<Section> sections, int clients, double floor_us,
                             const SleeperFloors& sleepers, long long final_balance, long long expected_balance) {
  std::sort(sections.begin(), sections.end(),
            [](const Section& a, const Section& b) { return a.acquired_ns < b.acquired_ns; });
  std::vector<double> handoffs_us;
  std::vector<double> per_client(static_cast<std::size_t>(clients), 0);
  for (std::size_t i = 0; i < sections.size(); ++i) {
    per_client[static_cast<std::size_t>(sections[i].client)] += 1;
    if (i > 0) handoffs_us.push_back(static_cast<double>(sections[i].acquired_ns - sections[i - 1].releasing_ns) / 1e3);
  }
  BenchCase result = BenchCase::from(std::move(name), handoffs_us, floor_us);
  auto ratio_to = [&](double sleeper_us) { return sleeper_us > 0 ? result.median_us / sleeper_us : 0; };
  double elapsed_s =
      sections.empty() ? 0 : static_cast<double>(sections.back().releasing_ns - sections.front().acquired_ns) / 1e9;
  result.extra = {{"clients", clients},
                  {"sections", sections.size()},
                  {"throughput_per_s", elapsed_s > 0 ? static_cast<double>(sections.size()) / elapsed_s : 0},
                  {"jain", util::jain_index(per_client)},
                  {"final_balance", final_balance},
                  {"expected_balance", expected_balance},
                  {"balance_ok", final_balance == expected_balance},
                  {"sleeper_floor_us", sleepers.short_gap_us},
                  {"sleeper_ratio", ratio_to(sleepers.short_gap_us)},
                  {"long_sleeper_floor_us", sleepers.long_gap_us},
                  {"long_sleeper_ratio", ratio_to(sleepers.long_gap_us)}};
  return result;
}

}  // namespace rlock::bench
