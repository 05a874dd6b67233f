#include "common/stats/wilcoxon_signed_rank.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace infergate {
namespace {

struct SignedRanks {
  std::vector<double> abs_sorted;  // the non-zero |d|, ascending
  double w_plus = 0;
  double tie_term = 0;  // sum over groups of tied |d| of t^3 - t
};

SignedRanks rank_differences(std::span<const double> d) {
  std::vector<std::pair<double, bool>> v;  // (|d|, d > 0)
  for (double x : d) {
    if (x != 0) v.emplace_back(std::fabs(x), x > 0);
  }
  std::sort(v.begin(), v.end());
  SignedRanks r;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j < v.size() && v[j].first == v[i].first) ++j;
    const double t = static_cast<double>(j - i);
    const double midrank = static_cast<double>(i + j + 1) / 2.0;
    for (size_t k = i; k < j; ++k) {
      if (v[k].second) r.w_plus += midrank;
    }
    r.tie_term += t * t * t - t;
    i = j;
  }
  for (const auto& [a, positive] : v) r.abs_sorted.push_back(a);
  return r;
}

// counts[s]: sign assignments of ranks 1..n whose positive ranks sum to s (subset sums).
std::vector<double> subset_sum_counts(int n) {
  const int top = n * (n + 1) / 2;
  std::vector<double> counts(size_t(top) + 1, 0.0);
  counts[0] = 1;
  for (int rank = 1; rank <= n; ++rank) {
    for (int s = rank * (rank + 1) / 2; s >= rank; --s)
      counts[size_t(s)] += counts[size_t(s - rank)];
  }
  return counts;
}

void exact_p_values(WilcoxonResult& r) {
  const std::vector<double> counts = subset_sum_counts(r.n);
  const int w = static_cast<int>(r.w_plus);  // integral: no ties
  const int top = r.n * (r.n + 1) / 2;
  double total = 0, at_most = 0, at_least = 0;
  for (int s = 0; s <= top; ++s) {
    total += counts[size_t(s)];
    if (s <= w) at_most += counts[size_t(s)];
    if (s >= w) at_least += counts[size_t(s)];
  }
  r.p_greater = std::min(1.0, at_least / total);
  r.p_less = std::min(1.0, at_most / total);
}

double normal_sf(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

void asymptotic_p_values(double tie_term, WilcoxonResult& r) {
  const double n = r.n;
  const double mu = n * (n + 1) / 4;
  const double variance = n * (n + 1) * (2 * n + 1) / 24 - tie_term / 48;
  if (!(variance > 0)) return;  // p-values stay 1
  const double sigma = std::sqrt(variance);
  r.p_greater = normal_sf((r.w_plus - mu - 0.5) / sigma);
  r.p_less = normal_sf((mu - r.w_plus - 0.5) / sigma);
}

}  // namespace

WilcoxonResult wilcoxon_signed_rank(std::span<const double> differences) {
  for (double d : differences) {
    if (!std::isfinite(d)) {
      throw std::invalid_argument("Wilcoxon signed-rank: a difference is not a finite number");
    }
  }
  const SignedRanks ranks = rank_differences(differences);
  WilcoxonResult r;
  r.n = static_cast<int>(ranks.abs_sorted.size());
  r.w_plus = ranks.w_plus;
  if (r.n == 0) return r;
  r.exact = ranks.tie_term == 0 && r.n <= kWilcoxonMaxExact;
  if (r.exact) {
    exact_p_values(r);
  } else {
    asymptotic_p_values(ranks.tie_term, r);
  }
  return r;
}

double wilcoxon_smallest_p(int n) { return n <= 0 ? 1.0 : std::ldexp(1.0, -n); }

int wilcoxon_min_pairs(double alpha) {
  int n = 1;
  while (wilcoxon_smallest_p(n) >= alpha && n < 64) ++n;
  return n;
}

}  // namespace infergate
