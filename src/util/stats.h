// Small statistics for result tables. Pure functions; thread-safe.
#pragma once

#include <utility>
#include <vector>

namespace rlock {

// The 95% Wilson score interval of `successes` out of `trials` ({0, 0} for no trials).
std::pair<double, double> wilson_interval(long successes, long trials);

// The median (the mean of the middle two for an even count; 0 for none).
double median(std::vector<double> values);

// The nearest-rank percentile: the smallest value with at least `fraction` of the values at or
// below it (fraction in (0, 1]; 0 for none). percentile(v, 0.99) is the p99.
double percentile(std::vector<double> values, double fraction);

// Jain's fairness index of per-client shares: (sum x)^2 / (n * sum x^2), from 1/n (one client got
// everything) to 1 (equal shares); 0 for no clients or no shares at all.
double jain_index(const std::vector<double>& shares);

}  // namespace rlock
