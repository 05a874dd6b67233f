#include "common/stats/descriptive.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace infergate {

double mean(std::span<const double> values) {
  if (values.empty()) throw std::invalid_argument("mean of an empty sample");
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

double percentile_in_place(std::span<double> values, double p) {
  if (values.empty()) throw std::invalid_argument("percentile of an empty sample");
  if (!(p >= 0.0 && p <= 100.0)) {
    throw std::invalid_argument("percentile " + std::to_string(p) + " is outside [0, 100]");
  }
  const double rank = static_cast<double>(values.size() - 1) * p / 100.0;
  const size_t lo = static_cast<size_t>(std::floor(rank));
  const auto lo_it = values.begin() + static_cast<std::ptrdiff_t>(lo);
  std::nth_element(values.begin(), lo_it, values.end());
  const double a = *lo_it;
  const double fraction = rank - static_cast<double>(lo);
  if (fraction == 0.0) return a;
  // nth_element leaves everything above rank lo after it: the next order statistic is their min.
  const double b = *std::min_element(lo_it + 1, values.end());
  // Same expression as linear_percentile (bench/results) so both agree to the bit.
  return a + (b - a) * fraction;
}

double median(std::vector<double> values) { return percentile_in_place(values, 50.0); }

}  // namespace infergate
