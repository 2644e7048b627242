// Small statistics for result tables. Pure functions; thread-safe.
#pragma once

#include <utility>
#include <vector>

namespace rlock::util {

// The 95% Wilson score interval of `successes` out of `trials` ({0, 0} for no trials).
std::pair<double, double> wilson_interval(long successes, long trials);

// Fisher's exact test of a 2x2 table [[a, b], [c, d]] (e.g. anomalies and clean trials of two
// cells): the two-sided p-value, the sum of the probabilities of every table with the same margins
// that is no more likely than this one (a relative tolerance of 1e-7 counts ties as scipy and R
// do). 1 for an empty table.
double fisher_exact_p(long a, long b, long c, long d);

// The median (the mean of the middle two for an even count; 0 for none).
double median(std::vector<double> values);

// The nearest-rank percentile: the smallest value with at least `fraction` of the values at or
// below it (fraction in (0, 1]; 0 for none). percentile(v, 0.99) is the p99.
double percentile(std::vector<double> values, double fraction);

// Jain's fairness index of per-client shares: (sum x)^2 / (n * sum x^2), from 1/n (one client got
// everything) to 1 (equal shares); 0 for no clients or no shares at all.
double jain_index(const std::vector<double>& shares);

}  // namespace rlock::util
