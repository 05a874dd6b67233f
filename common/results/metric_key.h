// A metric named by its results-file key, e.g. "summary.tpot_ms.p95" or
// "summary.request_throughput_rps" (docs/results-schema.md), and its value in a summary.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace infergate {

struct MetricKey {
  std::string text;    // as written: "summary.tpot_ms.p95"
  std::string metric;  // "tpot_ms"
  std::string stat;    // "p95"; empty for a scalar metric such as request_throughput_rps

  // A statistic the gates can recompute from per-request records (the registry's per_request
  // metrics: ttft_ms, tpot_ms, itl_ms, e2e_ms).
  bool is_per_request_stat() const;
};

// Parses "summary.<metric>[.<stat>]"; throws std::invalid_argument naming the key and the
// allowed stats (count, mean, min, p50, p90, p95, p99, max).
MetricKey parse_metric_key(std::string_view key);
// The metric's value in a summary object; nullopt when absent or not a number.
std::optional<double> metric_value(const nlohmann::json& summary, const MetricKey& key);

}  // namespace infergate
