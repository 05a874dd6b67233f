// Chi-square critical values for the distribution tests (sampler, speculative decoding).
#pragma once

#include <cmath>

namespace infergate::testing {

// Upper-tail standard normal quantile: solves 0.5 * erfc(z / sqrt 2) = alpha by bisection.
inline double normal_upper_quantile(double alpha) {
  double lo = 0.0, hi = 40.0;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (0.5 * std::erfc(mid / std::sqrt(2.0)) > alpha ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// Chi-square critical value for `df` degrees of freedom at upper-tail probability alpha, by the
// Wilson–Hilferty cube-root normal approximation (accurate to ~0.1% at df ~ 20, alpha 0.001).
inline double chi_square_critical(int df, double alpha) {
  const double k = df;
  const double z = normal_upper_quantile(alpha);
  const double c = 1.0 - 2.0 / (9.0 * k) + z * std::sqrt(2.0 / (9.0 * k));
  return k * c * c * c;
}

}  // namespace infergate::testing
