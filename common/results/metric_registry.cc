#include "common/results/metric_registry.h"

#include <array>

namespace infergate {

namespace {

constexpr Improves kLower = Improves::kLower, kHigher = Improves::kHigher,
                   kNeither = Improves::kNeither;

// name, unit, improves, distribution, per_request
constexpr std::array<MetricInfo, 28> kRunSummaryMetrics = {{
    {"num_requests", "", kNeither, false, false},
    {"num_completed", "", kNeither, false, false},
    {"num_errors", "", kNeither, false, false},
    {"num_aborted", "", kNeither, false, false},
    {"error_share", "", kNeither, false, false},
    {"duration_s", "s", kLower, false, false},
    {"request_throughput_rps", "req/s", kHigher, false, false},
    {"output_throughput_tps", "tok/s", kHigher, false, false},
    {"total_throughput_tps", "tok/s", kHigher, false, false},
    {"goodput_rps", "req/s", kHigher, false, false},
    {"good_fraction", "", kHigher, false, false},
    {"ttft_ms", "ms", kLower, true, true},
    {"tpot_ms", "ms", kLower, true, true},
    {"itl_ms", "ms", kLower, true, true},
    {"e2e_ms", "ms", kLower, true, true},
    {"send_lag_ms", "ms", kLower, true, false},
    {"input_tokens", "tokens", kNeither, true, false},
    {"output_tokens", "tokens", kNeither, true, false},
    {"peak_concurrency", "", kNeither, false, false},
    {"mean_concurrency", "", kNeither, false, false},
    {"peak_memory_bytes", "bytes", kLower, false, false},
    {"peak_gpu_memory_bytes", "bytes", kLower, false, false},
    {"utilization_pct", "%", kNeither, false, false},
    {"cpu_utilization_pct", "%", kNeither, false, false},
    {"prefix_cache_hit_rate", "", kNeither, false, false},
    {"preemptions", "", kNeither, false, false},
    {"harness_limited", "", kNeither, false, false},
    {"error_share_exceeded", "", kNeither, false, false},
}};

}  // namespace

std::span<const MetricInfo> run_summary_metrics() { return kRunSummaryMetrics; }

std::optional<MetricInfo> find_metric(std::string_view name) {
  for (const MetricInfo& m : kRunSummaryMetrics) {
    if (m.name == name) return m;
  }
  return std::nullopt;
}

}  // namespace infergate
