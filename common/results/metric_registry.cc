#include "common/results/metric_registry.h"

#include <array>

namespace infergate {

namespace {

constexpr Improves kLower = Improves::kLower, kHigher = Improves::kHigher,
                   kNeither = Improves::kNeither;
constexpr MetricShape kCount = MetricShape::kCount, kFraction = MetricShape::kFraction,
                      kNumber = MetricShape::kNumber, kOptional = MetricShape::kOptionalNumber,
                      kDistribution = MetricShape::kDistribution, kFlag = MetricShape::kFlag,
                      kOptionalDistribution = MetricShape::kOptionalDistribution;
using S = RunSummary;
constexpr bool kPacedByArrivals = true, kFree = false;

// name, unit, improves, shape, per_request, member, paced by arrivals
const std::array<MetricInfo, 48> kRunSummaryMetrics = {{
    {"num_requests", "", kNeither, kCount, false, &S::num_requests, kFree},
    {"num_completed", "", kNeither, kCount, false, &S::num_completed, kFree},
    {"num_errors", "", kNeither, kCount, false, &S::num_errors, kFree},
    {"num_aborted", "", kNeither, kCount, false, &S::num_aborted, kFree},
    {"error_share", "", kNeither, kFraction, false, &S::error_share, kFree},
    {"duration_s", "s", kLower, kNumber, false, &S::duration_s, kFree},
    {"request_throughput_rps", "req/s", kHigher, kNumber, false, &S::request_throughput_rps,
     kPacedByArrivals},
    {"output_throughput_tps", "tok/s", kHigher, kNumber, false, &S::output_throughput_tps,
     kPacedByArrivals},
    {"total_throughput_tps", "tok/s", kHigher, kNumber, false, &S::total_throughput_tps,
     kPacedByArrivals},
    {"goodput_rps", "req/s", kHigher, kNumber, false, &S::goodput_rps, kFree},
    {"good_fraction", "", kHigher, kFraction, false, &S::good_fraction, kFree},
    {"ttft_ms", "ms", kLower, kDistribution, true, &S::ttft_ms, kFree},
    {"tpot_ms", "ms", kLower, kDistribution, true, &S::tpot_ms, kFree},
    {"itl_ms", "ms", kLower, kDistribution, true, &S::itl_ms, kFree},
    {"e2e_ms", "ms", kLower, kDistribution, true, &S::e2e_ms, kFree},
    {"ttfot_ms", "ms", kLower, kOptionalDistribution, false, &S::ttfot_ms, kFree},
    {"send_lag_ms", "ms", kLower, kDistribution, false, &S::send_lag_ms, kFree},
    {"input_tokens", "tokens", kNeither, kDistribution, false, &S::input_tokens, kFree},
    {"output_tokens", "tokens", kNeither, kDistribution, false, &S::output_tokens, kFree},
    {"reasoning_tokens", "tokens", kNeither, kOptionalDistribution, false, &S::reasoning_tokens,
     kFree},
    {"peak_concurrency", "", kNeither, kNumber, false, &S::peak_concurrency, kFree},
    {"mean_concurrency", "", kNeither, kNumber, false, &S::mean_concurrency, kFree},
    {"peak_memory_bytes", "bytes", kLower, kNumber, false, &S::peak_memory_bytes, kFree},
    {"peak_gpu_memory_bytes", "bytes", kLower, kOptional, false, &S::peak_gpu_memory_bytes, kFree},
    {"utilization_pct", "%", kNeither, kNumber, false, &S::utilization_pct, kFree},
    {"cpu_utilization_pct", "%", kNeither, kNumber, false, &S::cpu_utilization_pct, kFree},
    {"harness_peak_memory_bytes", "bytes", kLower, kNumber, false, &S::harness_peak_memory_bytes,
     kFree},
    {"harness_cpu_utilization_pct", "%", kNeither, kNumber, false, &S::harness_cpu_utilization_pct,
     kFree},
    {"prefix_cache_hit_rate", "", kNeither, kFraction, false, &S::prefix_cache_hit_rate, kFree},
    {"preemptions", "", kNeither, kCount, false, &S::preemptions, kFree},
    {"engine_cpu_ms_per_decode_token", "ms", kLower, kOptional, false,
     &S::engine_cpu_ms_per_decode_token, kFree},
    {"engine_cpu_ms_per_prefill_token", "ms", kLower, kOptional, false,
     &S::engine_cpu_ms_per_prefill_token, kFree},
    {"engine_cpu_ms_per_single_decode_step", "ms", kLower, kOptional, false,
     &S::engine_cpu_ms_per_single_decode_step, kFree},
    {"engine_instructions_per_decode_token", "instructions", kLower, kOptional, false,
     &S::engine_instructions_per_decode_token, kFree},
    {"kl_divergence_mean", "nats", kLower, kOptional, false, &S::kl_divergence_mean, kFree},
    {"kl_divergence_p99", "nats", kLower, kOptional, false, &S::kl_divergence_p99, kFree},
    {"top1_agreement", "", kHigher, kOptional, false, &S::top1_agreement, kFree},
    {"perplexity", "", kLower, kOptional, false, &S::perplexity, kFree},
    {"spec_acceptance_rate", "", kHigher, kOptional, false, &S::spec_acceptance_rate, kFree},
    {"spec_tokens_per_target_pass", "tokens", kHigher, kOptional, false,
     &S::spec_tokens_per_target_pass, kFree},
    {"valid_output_rate", "", kHigher, kOptional, false, &S::valid_output_rate, kFree},
    {"capacity_at_slo", "", kHigher, kOptional, false, &S::capacity_at_slo, kFree},
    {"capacity_at_slo_low", "", kHigher, kOptional, false, &S::capacity_at_slo_low, kFree},
    {"capacity_at_slo_high", "", kHigher, kOptional, false, &S::capacity_at_slo_high, kFree},
    {"energy_j_per_output_token", "J", kLower, kOptional, false, &S::energy_j_per_output_token,
     kFree},
    {"energy_j_per_request", "J", kLower, kOptional, false, &S::energy_j_per_request, kFree},
    {"harness_limited", "", kNeither, kFlag, false, &S::harness_limited, kFree},
    {"error_share_exceeded", "", kNeither, kFlag, false, &S::error_share_exceeded, kFree},
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
