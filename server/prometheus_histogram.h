// A Prometheus histogram (cumulative buckets, sum, count) safe to observe from any thread, and
// its text exposition.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace infergate {

class PrometheusHistogram {
 public:
  // `bounds`: the buckets' upper bounds, ascending (+Inf is implied).
  explicit PrometheusHistogram(std::vector<double> bounds);

  void observe(double value);
  // `name`_bucket{labels,le=...}, `name`_sum{labels}, `name`_count{labels}; `labels` is
  // `key="value"` pairs joined by commas (already escaped), or "".
  std::string render(const std::string& name, const std::string& labels) const;

 private:
  std::vector<double> bounds_;
  mutable std::mutex mutex_;
  std::vector<uint64_t> counts_;  // per bucket, not cumulative; the last is +Inf
  double sum_ = 0;
};

// A label value with backslash, double quote and newline escaped, as the text format wants.
std::string prometheus_label_value(const std::string& value);

}  // namespace infergate
