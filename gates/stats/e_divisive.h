// E-Divisive with means (Matteson and James, "A Nonparametric Approach for Multiple Change Point
// Analysis of Multivariate Data", 2014), the change-point method of Apache Otava and MongoDB's
// signal processing: find the split of a series whose two sides differ most in energy distance,
// test it against permutations of the series, and recurse on the sides while splits stay
// significant (docs/gates.md, "Change points across history").
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace infergate {

struct EDivisiveOptions {
  double alpha = 0.01;     // a split is significant when its permutation p-value is <= alpha
  int permutations = 999;  // p = (1 + permutations at least as extreme) / (1 + permutations)
  size_t min_segment = 2;  // points on each side of a split
  uint64_t seed = 1;       // the permutations' stream: the same series gives the same answer
};

struct EDivisiveSplit {
  size_t index = 0;  // the first point after the change
  double q_hat = 0;  // the divergence statistic of the split (scaled energy distance)
  double p_value = 1;
};

// The significant splits of `values` (one number per point, in order), sorted by index.
// Each round takes the best split over every current segment (the split (tau, kappa) maximizing
// q_hat = tau' kappa' / (tau' + kappa') * E-hat over the segment's prefix [s, kappa), as the
// paper's method does) and compares its q_hat with the best over permutations within each
// segment (Otava's permutation test); it stops at the first split that is not significant.
// O(n^2) time and memory per evaluation: callers bound n (history detect: 2,000 points).
// Throws std::invalid_argument for alpha outside (0, 1), fewer than 1 permutation, a
// min_segment of 0, or a non-finite value.
std::vector<EDivisiveSplit> e_divisive(const std::vector<double>& values,
                                       const EDivisiveOptions& options);

}  // namespace infergate
