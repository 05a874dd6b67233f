#include "common/stats/mann_whitney.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

namespace infergate {
namespace {

struct Ranking {
  double rank_sum_x = 0;  // sum of x's (midrank) ranks in the pooled sample
  double tie_term = 0;    // sum over groups of tied values of t^3 - t
};

Ranking rank_pooled(std::span<const double> x, std::span<const double> y) {
  std::vector<std::pair<double, bool>> pooled;  // (value, is from x)
  pooled.reserve(x.size() + y.size());
  for (double v : x) pooled.emplace_back(v, true);
  for (double v : y) pooled.emplace_back(v, false);
  std::sort(pooled.begin(), pooled.end());
  Ranking ranking;
  for (size_t i = 0; i < pooled.size();) {
    size_t j = i;
    while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
    const double t = static_cast<double>(j - i);
    const double midrank = static_cast<double>(i + j + 1) / 2.0;  // mean of ranks i+1 .. j
    for (size_t k = i; k < j; ++k) {
      if (pooled[k].second) ranking.rank_sum_x += midrank;
    }
    ranking.tie_term += t * t * t - t;
    i = j;
  }
  return ranking;
}

// Number of arrangements of n1 x's and n2 y's with U = u, for u = 0 .. n1 * n2: the
// coefficients of the Gaussian binomial [n1 + n2 choose n1]_q. Recurrence on the largest
// element: an x beats all n2 y's (adds n2 to U), a y adds nothing,
//   c(m, n, u) = c(m - 1, n, u - n) + c(m, n - 1, u).
// Counts are at most C(n1 + n2, n1) and only ever added, so doubles hold them without
// cancellation. Table of (short + 1) rows of n1 * n2 + 1, updated in place per m.
std::vector<double> u_counts(size_t n1, size_t n2) {
  const size_t rows = std::min(n1, n2);  // the distribution is the same with n1, n2 swapped
  const size_t steps = std::max(n1, n2);
  const size_t width = n1 * n2 + 1;
  std::vector<double> table((rows + 1) * width, 0.0);
  for (size_t n = 0; n <= rows; ++n) table[n * width] = 1.0;  // m = 0: U = 0 only
  for (size_t m = 1; m <= steps; ++m) {
    // Row n goes from c(m - 1, n, .) to c(m, n, .); row n - 1 already holds c(m, n - 1, .).
    for (size_t n = 1; n <= rows; ++n) {
      double* row = &table[n * width];
      const double* prev = &table[(n - 1) * width];
      for (size_t u = m * n + 1; u-- > 0;) {
        row[u] = (u >= n ? row[u - n] : 0.0) + prev[u];
      }
    }
  }
  return {table.end() - static_cast<std::ptrdiff_t>(width), table.end()};
}

void exact_p_values(size_t n1, size_t n2, MannWhitneyResult& result) {
  const std::vector<double> counts = u_counts(n1, n2);
  const auto u = static_cast<size_t>(result.u);  // integral: no ties
  double at_most = 0;                            // arrangements with U <= u
  double total = 0;
  for (size_t k = 0; k < counts.size(); ++k) {
    total += counts[k];
    if (k <= u) at_most += counts[k];
  }
  // The distribution is symmetric about n1 n2 / 2: P(U >= u) = P(U <= n1 n2 - u). Summing the
  // short tail each time keeps small p-values accurate.
  double at_least = 0;
  for (size_t k = 0; k <= n1 * n2 - u; ++k) at_least += counts[k];
  result.p_less = std::min(1.0, at_most / total);
  result.p_greater = std::min(1.0, at_least / total);
}

double normal_sf(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

void asymptotic_p_values(size_t n1, size_t n2, double tie_term, MannWhitneyResult& result) {
  const double a = static_cast<double>(n1);
  const double b = static_cast<double>(n2);
  const double n = a + b;
  const double mu = a * b / 2.0;
  const double variance = a * b / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)));
  if (!(variance > 0.0)) {  // every value equal
    result.p_greater = result.p_less = 1.0;
    return;
  }
  const double sigma = std::sqrt(variance);
  result.p_greater = normal_sf((result.u - mu - 0.5) / sigma);
  result.p_less = normal_sf((mu - result.u - 0.5) / sigma);
}

}  // namespace

MannWhitneyResult mann_whitney_u(std::span<const double> x, std::span<const double> y,
                                 MannWhitneyMethod method) {
  if (x.empty() || y.empty()) {
    throw std::invalid_argument("Mann-Whitney U needs at least one value in each sample");
  }
  const auto has_nan = [](std::span<const double> s) {
    return std::any_of(s.begin(), s.end(), [](double v) { return std::isnan(v); });
  };
  if (has_nan(x) || has_nan(y)) throw std::invalid_argument("Mann-Whitney U sample holds a NaN");

  const size_t n1 = x.size();
  const size_t n2 = y.size();
  const Ranking ranking = rank_pooled(x, y);
  const bool ties = ranking.tie_term > 0;
  if (method == MannWhitneyMethod::kExact && ties) {
    throw std::invalid_argument("the exact Mann-Whitney distribution assumes no ties");
  }
  if (method == MannWhitneyMethod::kAuto) {
    const bool small = static_cast<double>(n1) * static_cast<double>(n2) <=
                       static_cast<double>(kMannWhitneyMaxExactPairs);
    method = !ties && small ? MannWhitneyMethod::kExact : MannWhitneyMethod::kAsymptotic;
  }

  MannWhitneyResult result;
  const double a = static_cast<double>(n1);
  result.u = ranking.rank_sum_x - a * (a + 1.0) / 2.0;
  result.exact = method == MannWhitneyMethod::kExact;
  if (result.exact) {
    exact_p_values(n1, n2, result);
  } else {
    asymptotic_p_values(n1, n2, ranking.tie_term, result);
  }
  result.p_two_sided = std::min(1.0, 2.0 * std::min(result.p_greater, result.p_less));
  return result;
}

}  // namespace infergate
