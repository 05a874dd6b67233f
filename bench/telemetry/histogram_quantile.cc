#include "bench/telemetry/histogram_quantile.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace infergate {

std::optional<HistogramSnapshot> find_histogram(const std::vector<PrometheusSample>& samples,
                                                const std::string& name) {
  const std::string bucket = name + "_bucket", sum = name + "_sum", count = name + "_count";
  std::map<double, double> by_le;
  HistogramSnapshot h;
  bool found = false;
  for (const PrometheusSample& s : samples) {
    if (s.name == sum) h.sum += s.value;
    if (s.name == count) h.count += s.value, found = true;
    if (s.name != bucket) continue;
    const std::string* le = s.label("le");
    if (le == nullptr) continue;
    const std::optional<double> bound = parse_prometheus_number(*le);
    if (!bound || std::isnan(*bound)) {
      throw PrometheusTextError(bucket + ": le=\"" + le->substr(0, 40) + "\" is not a bound");
    }
    by_le[*bound] += s.value;
  }
  if (!found) return std::nullopt;
  for (const auto& [le, n] : by_le) h.buckets.push_back({le, n});
  return h;
}

HistogramSnapshot histogram_delta(const HistogramSnapshot& last, const HistogramSnapshot& first) {
  if (last.buckets.size() != first.buckets.size() || last.count < first.count) return last;
  HistogramSnapshot d;
  d.sum = last.sum - first.sum;
  d.count = last.count - first.count;
  for (size_t i = 0; i < last.buckets.size(); ++i) {
    if (last.buckets[i].le != first.buckets[i].le ||
        last.buckets[i].count < first.buckets[i].count) {
      return last;
    }
    d.buckets.push_back({last.buckets[i].le, last.buckets[i].count - first.buckets[i].count});
  }
  return d;
}

std::optional<double> histogram_quantile(double q, const HistogramSnapshot& h) {
  const std::vector<HistogramBucket>& b = h.buckets;
  if (b.size() < 2 || !std::isinf(b.back().le) || b.back().count <= 0) return std::nullopt;
  const double rank = std::clamp(q, 0.0, 1.0) * b.back().count;
  size_t i = 0;
  while (i + 1 < b.size() && b[i].count < rank) ++i;
  if (i == b.size() - 1) return b[b.size() - 2].le;  // in the +Inf bucket
  if (i == 0 && b[0].le <= 0) return b[0].le;
  const double lower = i == 0 ? 0.0 : b[i - 1].le;
  const double below = i == 0 ? 0.0 : b[i - 1].count;
  const double in_bucket = b[i].count - below;
  if (in_bucket <= 0) return b[i].le;
  return lower + (b[i].le - lower) * (rank - below) / in_bucket;
}

std::optional<double> histogram_mean(const HistogramSnapshot& h) {
  if (h.count <= 0) return std::nullopt;
  return h.sum / h.count;
}

}  // namespace infergate
