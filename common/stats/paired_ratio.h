// The change of a metric between paired runs (one baseline and one candidate run next to each
// other in time): the geometric mean of the per-pair ratios candidate / baseline, with a
// Student-t interval of the mean log ratio. Ratios, not differences, because drift scales a
// run's figures (a machine 20% slower makes every latency about 20% larger): the log ratio of a
// pair cancels it, the difference does not.
#pragma once

#include <span>

#include "common/stats/bootstrap.h"

namespace infergate {

struct PairedRatio {
  int pairs = 0;
  double estimate = 0;  // exp(mean log ratio) - 1
  Interval interval;    // exp(t-interval of the mean log ratio) - 1
  double log_sd = 0;    // sample standard deviation of the log ratios: the paired noise
};

// Throws std::invalid_argument unless both spans have the same size >= 2, every value is finite
// and > 0, and confidence is in (0, 1).
PairedRatio paired_ratio(std::span<const double> baseline, std::span<const double> candidate,
                         double confidence);

// The smallest relative change the one-sided signed-rank test at `alpha` detects with
// probability `power` over `pairs` pairs whose log ratios spread by `log_sd`: the normal
// formula (z_{1-alpha} + z_power) * log_sd / sqrt(n), with n scaled by the signed-rank test's
// asymptotic efficiency 3/pi, as a ratio (exp(.) - 1).
double paired_detectable_change(double log_sd, int pairs, double alpha, double power);

// The pairs that detection needs: the same formula solved for n (at least 2).
int pairs_to_detect(double change, double log_sd, double alpha, double power);

}  // namespace infergate
