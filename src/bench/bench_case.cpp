#include "bench/bench.h"
#include "util/stats.h"

namespace rlock::bench {

BenchCase BenchCase::from(std::string name, const std::vector<double>& samples_us, double floor_us) {
  BenchCase result;
  result.name = std::move(name);
  result.samples = samples_us.size();
  result.median_us = util::median(samples_us);
  result.p99_us = util::percentile(samples_us, 0.99);
  result.floor_us = floor_us;
  return result;
}

}  // namespace rlock::bench
