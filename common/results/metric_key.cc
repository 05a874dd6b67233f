#include "common/results/metric_key.h"

#include <array>

#include "common/results/metric_registry.h"

namespace infergate {

namespace {

constexpr std::array<std::string_view, 8> kStats = {"count", "mean", "min", "p50",
                                                    "p90",   "p95",  "p99", "max"};

template <size_t N>
bool contains(const std::array<std::string_view, N>& set, std::string_view s) {
  for (std::string_view x : set) {
    if (x == s) return true;
  }
  return false;
}

}  // namespace

bool MetricKey::is_per_request_stat() const {
  const std::optional<MetricInfo> info = find_metric(metric);
  return !stat.empty() && stat != "count" && info && info->per_request;
}

MetricKey parse_metric_key(std::string_view key) {
  constexpr std::string_view kPrefix = "summary.";
  const std::string quoted = "metric key '" + std::string(key) + "'";
  if (key.substr(0, kPrefix.size()) != kPrefix || key.size() == kPrefix.size()) {
    throw std::invalid_argument(quoted + " must look like summary.<metric>[.<stat>], e.g. " +
                                "summary.tpot_ms.p95 (docs/results-schema.md)");
  }
  MetricKey k;
  k.text = std::string(key);
  const std::string_view rest = key.substr(kPrefix.size());
  const size_t dot = rest.find('.');
  k.metric = std::string(rest.substr(0, dot));
  if (dot != std::string_view::npos) {
    k.stat = std::string(rest.substr(dot + 1));
    if (!contains(kStats, k.stat)) {
      throw std::invalid_argument(quoted + ": unknown statistic '" + k.stat +
                                  "' (allowed: count, mean, min, p50, p90, p95, p99, max)");
    }
  }
  if (k.metric.empty()) throw std::invalid_argument(quoted + ": empty metric name");
  return k;
}

std::optional<double> metric_value(const nlohmann::json& summary, const MetricKey& key) {
  const auto it = summary.find(key.metric);
  if (it == summary.end()) return std::nullopt;
  const nlohmann::json* v = &*it;
  if (!key.stat.empty()) {
    if (!v->is_object() || !v->contains(key.stat)) return std::nullopt;
    v = &(*v)[key.stat];
  }
  if (v->is_boolean()) return v->get<bool>() ? 1.0 : 0.0;
  if (!v->is_number()) return std::nullopt;
  return v->get<double>();
}

}  // namespace infergate
