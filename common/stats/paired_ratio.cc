#include "common/stats/paired_ratio.h"

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace infergate {
namespace {

constexpr double kSignedRankEfficiency = 3.0 / M_PI;

double z_quantile(double p) { return boost::math::quantile(boost::math::normal(), p); }

}  // namespace

PairedRatio paired_ratio(std::span<const double> baseline, std::span<const double> candidate,
                         double confidence) {
  if (baseline.size() != candidate.size() || baseline.size() < 2) {
    throw std::invalid_argument("a paired ratio needs the same number (>= 2) of runs per side");
  }
  if (!(confidence > 0 && confidence < 1)) {
    throw std::invalid_argument("confidence must be in (0, 1)");
  }
  std::vector<double> logs;
  for (size_t i = 0; i < baseline.size(); ++i) {
    const double a = baseline[i], b = candidate[i];
    if (!(std::isfinite(a) && std::isfinite(b) && a > 0 && b > 0)) {
      throw std::invalid_argument("pair " + std::to_string(i) +
                                  ": a paired ratio needs finite values > 0");
    }
    logs.push_back(std::log(b / a));
  }
  const double n = static_cast<double>(logs.size());
  double sum = 0;
  for (double l : logs) sum += l;
  const double mean = sum / n;
  double squares = 0;
  for (double l : logs) squares += (l - mean) * (l - mean);
  PairedRatio r;
  r.pairs = static_cast<int>(logs.size());
  r.log_sd = std::sqrt(squares / (n - 1));
  const double t = boost::math::quantile(boost::math::students_t(n - 1), 0.5 + confidence / 2);
  const double half = t * r.log_sd / std::sqrt(n);
  r.estimate = std::expm1(mean);
  r.interval = {std::expm1(mean - half), std::expm1(mean + half)};
  return r;
}

double paired_detectable_change(double log_sd, int pairs, double alpha, double power) {
  if (pairs < 1) return INFINITY;
  const double z = z_quantile(1 - alpha) + z_quantile(power);
  return std::expm1(z * log_sd / std::sqrt(pairs * kSignedRankEfficiency));
}

int pairs_to_detect(double change, double log_sd, double alpha, double power) {
  const double effect = std::log1p(std::fabs(change));
  if (!(effect > 0)) return INT32_MAX;
  const double z = z_quantile(1 - alpha) + z_quantile(power);
  const double n = std::pow(z * log_sd / effect, 2) / kSignedRankEfficiency;
  return n > 1e6 ? INT32_MAX : std::max(2, static_cast<int>(std::ceil(n)));
}

}  // namespace infergate
