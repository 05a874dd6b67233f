#include "common/results/metric_registry.h"

#include <array>

namespace infergate {

namespace {

constexpr Improves kLower = Improves::kLower, kHigher = Improves::kHigher,
                   kNeither = Improves::kNeither;
constexpr MetricShape kCount = MetricShape::kCount, kFraction = MetricShape::kFraction,
                      kNumber = MetricShape::kNumber, kOptional = MetricShape::kOptionalNumber,
                      kDistribution = MetricShape::kDistribution, kFlag = MetricShape::kFlag;
using S = RunSummary;

// name, unit, improves, shape, per_request, member
const std::array<MetricInfo, 30> kRunSummaryMetrics = {{
    {"num_requests", "", kNeither, kCount, false, &S::num_requests},
    {"num_completed", "", kNeither, kCount, false, &S::num_completed},
    {"num_errors", "", kNeither, kCount, false, &S::num_errors},
    {"num_aborted", "", kNeither, kCount, false, &S::num_aborted},
    {"error_share", "", kNeither, kFraction, false, &S::error_share},
    {"duration_s", "s", kLower, kNumber, false, &S::duration_s},
    {"request_throughput_rps", "req/s", kHigher, kNumber, false, &S::request_throughput_rps},
    {"output_throughput_tps", "tok/s", kHigher, kNumber, false, &S::output_throughput_tps},
    {"total_throughput_tps", "tok/s", kHigher, kNumber, false, &S::total_throughput_tps},
    {"goodput_rps", "req/s", kHigher, kNumber, false, &S::goodput_rps},
    {"good_fraction", "", kHigher, kFraction, false, &S::good_fraction},
    {"ttft_ms", "ms", kLower, kDistribution, true, &S::ttft_ms},
    {"tpot_ms", "ms", kLower, kDistribution, true, &S::tpot_ms},
    {"itl_ms", "ms", kLower, kDistribution, true, &S::itl_ms},
    {"e2e_ms", "ms", kLower, kDistribution, true, &S::e2e_ms},
    {"send_lag_ms", "ms", kLower, kDistribution, false, &S::send_lag_ms},
    {"input_tokens", "tokens", kNeither, kDistribution, false, &S::input_tokens},
    {"output_tokens", "tokens", kNeither, kDistribution, false, &S::output_tokens},
    {"peak_concurrency", "", kNeither, kNumber, false, &S::peak_concurrency},
    {"mean_concurrency", "", kNeither, kNumber, false, &S::mean_concurrency},
    {"peak_memory_bytes", "bytes", kLower, kNumber, false, &S::peak_memory_bytes},
    {"peak_gpu_memory_bytes", "bytes", kLower, kOptional, false, &S::peak_gpu_memory_bytes},
    {"utilization_pct", "%", kNeither, kNumber, false, &S::utilization_pct},
    {"cpu_utilization_pct", "%", kNeither, kNumber, false, &S::cpu_utilization_pct},
    {"prefix_cache_hit_rate", "", kNeither, kFraction, false, &S::prefix_cache_hit_rate},
    {"preemptions", "", kNeither, kCount, false, &S::preemptions},
    {"engine_cpu_ms_per_decode_token", "ms", kLower, kOptional, false,
     &S::engine_cpu_ms_per_decode_token},
    {"engine_cpu_ms_per_prefill_token", "ms", kLower, kOptional, false,
     &S::engine_cpu_ms_per_prefill_token},
    {"harness_limited", "", kNeither, kFlag, false, &S::harness_limited},
    {"error_share_exceeded", "", kNeither, kFlag, false, &S::error_share_exceeded},
}};

}  // namespace

double MetricInfo::upper_bound() const {
  if (shape == MetricShape::kFraction) return 1.0;
  if (unit == "ms") return 1e10;     // 115 days
  if (unit == "bytes") return 1e18;  // an exabyte
  if (unit == "%") return 1e6;
  if (unit == "s") return 1e9;
  return kUnlistedMetricBound;
}

std::span<const MetricInfo> run_summary_metrics() { return kRunSummaryMetrics; }

std::optional<MetricInfo> find_metric(std::string_view name) {
  for (const MetricInfo& m : kRunSummaryMetrics) {
    if (m.name == name) return m;
  }
  return std::nullopt;
}

}  // namespace infergate
