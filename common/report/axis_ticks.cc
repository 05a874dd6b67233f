#include "common/report/axis_ticks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace infergate {

namespace {

// The nice number (1, 2, 5 or 10 times a power of ten) closest to `x`.
double nice_step(double x) {
  const double exponent = std::floor(std::log10(x));
  const double fraction = x / std::pow(10.0, exponent);
  const double nice = fraction < 1.5 ? 1 : fraction < 3 ? 2 : fraction < 7 ? 5 : 10;
  return nice * std::pow(10.0, exponent);
}

}  // namespace

AxisTicks nice_ticks(double lo, double hi, int target) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = hi = 0;
  if (lo > hi) std::swap(lo, hi);
  if (hi - lo < 1e-12 * std::max(1.0, std::fabs(hi))) {
    const double pad = lo == 0 ? 1 : std::fabs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  AxisTicks t;
  t.step = nice_step((hi - lo) / std::max(1, target - 1));
  t.lo = std::floor(lo / t.step + 1e-9) * t.step;
  t.hi = std::ceil(hi / t.step - 1e-9) * t.step;
  const int n = static_cast<int>(std::lround((t.hi - t.lo) / t.step));
  for (int i = 0; i <= n; ++i) {
    const double v = t.lo + i * t.step;
    t.values.push_back(std::fabs(v) < t.step * 1e-9 ? 0.0 : v);
  }
  return t;
}

std::string tick_label(double value, double step) {
  char buf[64];
  const double magnitude = std::max(std::fabs(value), step);
  if (magnitude >= 1e6) {
    const double scale = magnitude >= 1e9 ? 1e9 : 1e6;
    const char* suffix = scale == 1e9 ? "G" : "M";
    const int decimals =
        std::max(0, static_cast<int>(-std::floor(std::log10(step / scale) + 1e-9)));
    std::snprintf(buf, sizeof buf, "%.*f%s", std::min(decimals, 6), value / scale, suffix);
    return buf;
  }
  const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
  std::snprintf(buf, sizeof buf, "%.*f", std::min(decimals, 9), value);
  return buf;
}

}  // namespace infergate
