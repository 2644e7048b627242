#include "util/stats.h"

#include <algorithm>
#include <cmath>

namespace rlock::util {

std::pair<double, double> wilson_interval(long successes, long trials) {
  if (trials <= 0) return {0, 0};
  constexpr double z = 1.959963984540054;
  double n = static_cast<double>(trials);
  double p = static_cast<double>(successes) / n;
  double denominator = 1 + z * z / n;
  double center = (p + z * z / (2 * n)) / denominator;
  double half = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator;
  return {std::max(0.0, center - half), std::min(1.0, center + half)};
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  std::size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

double percentile(std::vector<double> values, double fraction) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  auto rank = static_cast<std::size_t>(std::ceil(fraction * static_cast<double>(values.size())));
  return values[std::clamp<std::size_t>(rank, 1, values.size()) - 1];
}

double jain_index(const std::vector<double>& shares) {
  double sum = 0, squares = 0;
  for (double x : shares) {
    sum += x;
    squares += x * x;
  }
  if (squares == 0) return 0;
  return sum * sum / (static_cast<double>(shares.size()) * squares);
}

}  // namespace rlock::util

namespace rlock::util {
namespace {

// log(n choose k)
double log_choose(long n, long k) {
  return std::lgamma(static_cast<double>(n) + 1) - std::lgamma(static_cast<double>(k) + 1) -
         std::lgamma(static_cast<double>(n - k) + 1);
}

}  // namespace

double fisher_exact_p(long a, long b, long c, long d) {
  long row = a + b, column = a + c, n = a + b + c + d;
  if (n == 0) return 1;
  // The hypergeometric probability of x in the top-left cell, the margins fixed.
  auto log_p = [&](long x) { return log_choose(row, x) + log_choose(n - row, column - x) - log_choose(n, column); };
  double observed = log_p(a);
  double p = 0;
  for (long x = std::max(0L, column - (n - row)); x <= std::min(row, column); ++x) {
    double lp = log_p(x);
    if (lp <= observed + 1e-7) p += std::exp(lp);
  }
  return std::min(p, 1.0);
}

}  // namespace rlock::util
