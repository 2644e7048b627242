// Small statistics for result tables. Pure functions; thread-safe.
#pragma once

#include <utility>
#include <vector>

namespace rlock {

// The 95% Wilson score interval of `successes` out of `trials` ({0, 0} for no trials).
std::pair<double, double> wilson_interval(long successes, long trials);

// The median (the mean of the middle two for an even count; 0 for none).
double median(std::vector<double> values);

}  // namespace rlock
