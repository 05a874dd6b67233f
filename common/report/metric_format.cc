#include "common/report/metric_format.h"

#include <cmath>
#include <cstdio>
#include <optional>

#include "common/results/metric_registry.h"

namespace infergate {

namespace {

std::string printf_string(const char* format, int precision, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, precision, v);
  return buf;
}

std::string format_bytes(double v) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (std::fabs(v) >= 1024 && unit < 4) {
    v /= 1024;
    ++unit;
  }
  return format_number(v) + " " + kUnits[unit];
}

}  // namespace

std::string format_number(double v, int significant) {
  if (!std::isfinite(v)) return "n/a";
  const double magnitude = std::fabs(v);
  if (magnitude >= std::pow(10.0, significant) && magnitude < 1e15) {
    return printf_string("%.*f", 0, v);
  }
  return printf_string("%.*g", significant, v);
}

std::string metric_unit(std::string_view metric) {
  const std::optional<MetricInfo> info = find_metric(metric);
  return info ? std::string(info->unit) : "";
}

std::string format_metric_value(double v, const MetricKey& key) {
  if (!std::isfinite(v)) return "n/a";
  const std::string unit = key.stat == "count" ? "" : metric_unit(key.metric);
  if (unit == "bytes") return format_bytes(v);
  if (unit.empty()) return format_number(v);
  if (unit == "%") return format_number(v) + "%";
  return format_number(v) + " " + unit;
}

std::string format_change(double fraction) {
  if (!std::isfinite(fraction)) return "n/a";
  const double pct = fraction * 100;
  const int decimals = std::fabs(pct) >= 10 ? 1 : 2;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%+.*f%%", decimals, pct);
  return buf;
}

std::string format_interval(double lo, double hi) {
  return "[" + format_change(lo) + ", " + format_change(hi) + "]";
}

std::string format_p_value(double p) {
  if (!std::isfinite(p)) return "n/a";
  if (p < 0.001) return "<0.001";
  return format_number(p, 2);
}

}  // namespace infergate
