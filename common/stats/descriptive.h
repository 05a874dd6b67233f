// Descriptive statistics shared by the gates: mean, median and percentiles of plain samples.
#pragma once

#include <span>
#include <vector>

namespace infergate {

// Arithmetic mean. Throws std::invalid_argument if `values` is empty.
double mean(std::span<const double> values);

// numpy.percentile(values, p) (method="linear": rank (n - 1) * p / 100, linear between the
// neighbours), found with std::nth_element in O(n). Reorders `values`. Throws
// std::invalid_argument if `values` is empty or p is outside [0, 100].
double percentile_in_place(std::span<double> values, double p);

// The 50th percentile (mean of the middle two for an even count). Throws std::invalid_argument
// if `values` is empty.
double median(std::vector<double> values);

}  // namespace infergate
