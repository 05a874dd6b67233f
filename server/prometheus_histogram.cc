#include "server/prometheus_histogram.h"

#include <algorithm>
#include <cstdio>

namespace infergate {

namespace {

// Shortest text that reads back as the same double ("0.005", "2560", "+Inf").
std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  for (int precision = 1; precision < 17; ++precision) {
    char shorter[32];
    std::snprintf(shorter, sizeof(shorter), "%.*g", precision, v);
    if (std::stod(shorter) == v) return shorter;
  }
  return buf;
}

std::string with_labels(const std::string& labels, const std::string& more) {
  if (labels.empty()) return "{" + more + "}";
  return "{" + labels + (more.empty() ? "" : "," + more) + "}";
}

}  // namespace

PrometheusHistogram::PrometheusHistogram(std::vector<double> bounds)
    : bounds_(std::move(bounds)), counts_(bounds_.size() + 1, 0) {}

void PrometheusHistogram::observe(double value) {
  const size_t bucket =
      size_t(std::lower_bound(bounds_.begin(), bounds_.end(), value) - bounds_.begin());
  std::lock_guard<std::mutex> lock(mutex_);
  ++counts_[bucket];
  sum_ += value;
}

std::string PrometheusHistogram::render(const std::string& name, const std::string& labels) const {
  std::vector<uint64_t> counts;
  double sum = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    counts = counts_;
    sum = sum_;
  }
  std::string out;
  uint64_t cumulative = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    cumulative += counts[i];
    const std::string le = i < bounds_.size() ? number(bounds_[i]) : "+Inf";
    out += name + "_bucket" + with_labels(labels, "le=\"" + le + "\"") + " " +
           std::to_string(cumulative) + "\n";
  }
  const std::string plain = labels.empty() ? "" : "{" + labels + "}";
  out += name + "_sum" + plain + " " + number(sum) + "\n";
  out += name + "_count" + plain + " " + std::to_string(cumulative) + "\n";
  return out;
}

std::string prometheus_label_value(const std::string& value) {
  std::string out;
  for (const char c : value) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

}  // namespace infergate
