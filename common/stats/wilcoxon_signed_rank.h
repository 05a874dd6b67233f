// Wilcoxon signed-rank test: do paired differences tend to be positive? The test of a paired
// A/B (gates/ab): each pair's difference cancels what both runs of the pair shared (the
// machine's speed at that moment), and ranks keep one odd pair from deciding. Matches
// scipy.stats.wilcoxon with zero_method="wilcox" (zero differences dropped).
#pragma once

#include <span>

namespace infergate {

struct WilcoxonResult {
  int n = 0;             // non-zero differences, the pairs the test used
  double w_plus = 0;     // sum of the (mid)ranks of |d| over the positive differences
  double p_greater = 1;  // one-sided p for H1: the differences tend to be positive
  double p_less = 1;     // one-sided p for H1: the differences tend to be negative
  bool exact = false;    // exact null distribution (no ties, n <= kWilcoxonMaxExact)
};

// Exact (every sign assignment of the ranks equally likely, counted by dynamic programming)
// when the |d| have no ties and n <= this; otherwise the normal approximation with the tie
// correction of the variance and a 0.5 continuity correction (scipy's "approx").
inline constexpr int kWilcoxonMaxExact = 60;

// No non-zero difference: no evidence either way, both p-values 1. Throws
// std::invalid_argument if a difference is NaN or infinite.
WilcoxonResult wilcoxon_signed_rank(std::span<const double> differences);

// The smallest one-sided p the exact test can give with n pairs: 2^-n. A paired rule needs at
// least the n where this falls below alpha (7 pairs at alpha 0.01, 5 at 0.05).
double wilcoxon_smallest_p(int n);
int wilcoxon_min_pairs(double alpha);

}  // namespace infergate
