// Mann-Whitney U test (Wilcoxon rank-sum): do the values of one sample tend to be larger than
// those of another? Rank-based, so it needs no distributional assumption and a single outlier
// repetition moves it by one rank at most. Matches scipy.stats.mannwhitneyu.
#pragma once

#include <span>

namespace infergate {

struct MannWhitneyResult {
  double u = 0;            // U of x: pairs (x_i > y_j) + 0.5 * ties
  double p_greater = 1;    // one-sided p for H1: x tends to be larger than y
  double p_less = 1;       // one-sided p for H1: x tends to be smaller than y
  double p_two_sided = 1;  // min(1, 2 * min(p_greater, p_less))
  bool exact = false;      // exact null distribution (no ties, small samples) vs normal approx.
};

enum class MannWhitneyMethod {
  // Exact when there are no ties and n1 * n2 <= kMannWhitneyMaxExactPairs, else asymptotic.
  // scipy's "auto" switches at 8 per side; the exact distribution costs well under a
  // millisecond up to this bound, and is the better answer wherever it applies.
  kAuto,
  // The exact null distribution of U (as scipy's method="exact"): every assignment of the
  // pooled ranks to the two samples is equally likely; counted by dynamic programming.
  // Throws std::invalid_argument if there are ties (it is exact for untied data only).
  kExact,
  // Normal approximation with the tie correction of the variance and a 0.5 continuity
  // correction (scipy's method="asymptotic", use_continuity=True). When every value is the
  // same the variance is 0 and there is no evidence either way: all p-values are 1.
  kAsymptotic,
};

inline constexpr int kMannWhitneyMaxExactPairs = 2500;  // e.g. 50 vs 50

// Throws std::invalid_argument if either sample is empty or holds a NaN.
MannWhitneyResult mann_whitney_u(std::span<const double> x, std::span<const double> y,
                                 MannWhitneyMethod method = MannWhitneyMethod::kAuto);

}  // namespace infergate
