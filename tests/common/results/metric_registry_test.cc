// The metric registry (common/results/metric_registry.h), from which the harness writes the run
// summary: every field under its own name and shape, units, directions and bounds.
#include <catch2/catch.hpp>
#include <iterator>
#include <set>
#include <string>

#include "common/results/metric_registry.h"
#include "common/results/run_summary.h"

namespace infergate {

// Each field set by hand to its own value: a registry entry pointing at the wrong member (or two
// entries at one) writes a value under a name it does not belong to.
TEST_CASE("the summary writes every RunSummary field under its own name, with its shape") {
  RunSummary s;
  s.num_requests = 1, s.num_completed = 2, s.num_errors = 3, s.num_aborted = 4;
  s.error_share = 0.05, s.duration_s = 6, s.request_throughput_rps = 7;
  s.output_throughput_tps = 8, s.total_throughput_tps = 9, s.goodput_rps = 10;
  s.good_fraction = 0.11;
  s.ttft_ms.p95 = 12, s.tpot_ms.p95 = 13, s.itl_ms.p95 = 14, s.e2e_ms.p95 = 15;
  s.send_lag_ms.p95 = 16, s.input_tokens.p95 = 17, s.output_tokens.p95 = 18;
  s.peak_concurrency = 19, s.mean_concurrency = 20, s.peak_memory_bytes = 21;
  s.peak_gpu_memory_bytes = 22, s.utilization_pct = 23, s.cpu_utilization_pct = 24;
  s.prefix_cache_hit_rate = 0.25, s.preemptions = 26;
  s.engine_cpu_ms_per_decode_token = 27, s.engine_cpu_ms_per_prefill_token = 28;
  s.engine_cpu_ms_per_single_decode_step = 29;
  s.engine_instructions_per_decode_token = 30;
  s.kl_divergence_mean = 31, s.kl_divergence_p99 = 32, s.top1_agreement = 0.33;
  s.perplexity = 34;
  s.spec_acceptance_rate = 0.35, s.spec_tokens_per_target_pass = 36;
  s.valid_output_rate = 0.39;
  s.capacity_at_slo = 40, s.capacity_at_slo_low = 41, s.capacity_at_slo_high = 42;
  s.energy_j_per_output_token = 43, s.energy_j_per_request = 44;
  s.ttfot_ms = StatSummary{45, 0, 0, 0, 0, 46, 0, 0};
  s.reasoning_tokens = StatSummary{47, 0, 0, 0, 0, 48, 0, 0};
  s.harness_limited = true, s.error_share_exceeded = false;
  s.harness_peak_memory_bytes = 37, s.harness_cpu_utilization_pct = 38;
  const nlohmann::json w = summary_to_json(s);
  const std::pair<const char*, double> scalars[] = {{"num_requests", 1},
                                                    {"num_completed", 2},
                                                    {"num_errors", 3},
                                                    {"num_aborted", 4},
                                                    {"error_share", 0.05},
                                                    {"duration_s", 6},
                                                    {"request_throughput_rps", 7},
                                                    {"output_throughput_tps", 8},
                                                    {"total_throughput_tps", 9},
                                                    {"goodput_rps", 10},
                                                    {"good_fraction", 0.11},
                                                    {"peak_concurrency", 19},
                                                    {"mean_concurrency", 20},
                                                    {"peak_memory_bytes", 21},
                                                    {"peak_gpu_memory_bytes", 22},
                                                    {"utilization_pct", 23},
                                                    {"cpu_utilization_pct", 24},
                                                    {"prefix_cache_hit_rate", 0.25},
                                                    {"preemptions", 26},
                                                    {"engine_cpu_ms_per_decode_token", 27},
                                                    {"engine_cpu_ms_per_prefill_token", 28},
                                                    {"engine_cpu_ms_per_single_decode_step", 29},
                                                    {"engine_instructions_per_decode_token", 30},
                                                    {"kl_divergence_mean", 31},
                                                    {"kl_divergence_p99", 32},
                                                    {"top1_agreement", 0.33},
                                                    {"perplexity", 34},
                                                    {"spec_acceptance_rate", 0.35},
                                                    {"spec_tokens_per_target_pass", 36},
                                                    {"valid_output_rate", 0.39},
                                                    {"capacity_at_slo", 40},
                                                    {"capacity_at_slo_low", 41},
                                                    {"capacity_at_slo_high", 42},
                                                    {"energy_j_per_output_token", 43},
                                                    {"energy_j_per_request", 44},
                                                    {"harness_peak_memory_bytes", 37},
                                                    {"harness_cpu_utilization_pct", 38}};
  for (const auto& [key, value] : scalars) {
    INFO(key);
    CHECK(w.at(key) == value);
  }
  const std::pair<const char*, double> distributions[] = {
      {"ttft_ms", 12},       {"tpot_ms", 13},     {"itl_ms", 14},
      {"e2e_ms", 15},        {"send_lag_ms", 16}, {"input_tokens", 17},
      {"output_tokens", 18}, {"ttfot_ms", 46},    {"reasoning_tokens", 48}};
  for (const auto& [key, p95] : distributions) {
    INFO(key);
    CHECK(w.at(key).at("p95") == p95);
  }
  CHECK(w.at("harness_limited") == true);
  CHECK(w.at("error_share_exceeded") == false);
  CHECK(w.size() == std::size(scalars) + std::size(distributions) + 2);  // nothing else
  for (const char* optional :
       {"peak_gpu_memory_bytes", "engine_cpu_ms_per_decode_token",
        "engine_cpu_ms_per_prefill_token", "engine_cpu_ms_per_single_decode_step",
        "engine_instructions_per_decode_token", "kl_divergence_mean", "kl_divergence_p99",
        "top1_agreement", "perplexity", "valid_output_rate", "capacity_at_slo",
        "capacity_at_slo_low", "capacity_at_slo_high", "energy_j_per_output_token",
        "energy_j_per_request", "ttfot_ms", "reasoning_tokens"}) {
    INFO(optional);
    CHECK(summary_to_json(RunSummary{}).at(optional).is_null());  // not measured
  }

  std::set<std::string> declared;
  for (const MetricInfo& m : run_summary_metrics()) {
    declared.insert(std::string(m.name));
    INFO(m.name);
    CHECK(w.at(std::string(m.name)).is_object() == m.distribution());
    CHECK(w.at(std::string(m.name)).is_boolean() == (m.shape == MetricShape::kFlag));
    if (m.per_request) CHECK(m.distribution());
  }
  CHECK(declared.size() == run_summary_metrics().size());  // no name twice
}

TEST_CASE("error classes read back as they were written") {
  const std::vector<ErrorClass> classes = {{"timeout", 3, "no answer in 5 s"},
                                           {"http status 503", 1, "busy"}};
  const std::vector<ErrorClass> back = error_classes_from_json(error_classes_to_json(classes));
  REQUIRE(back.size() == 2);
  CHECK(back[0].name == "timeout");
  CHECK(back[0].count == 3);
  CHECK(back[1].first_message == "busy");
}

TEST_CASE("the metric registry gives units and directions, and nothing for an unlisted metric") {
  CHECK(find_metric("tpot_ms")->unit == "ms");
  CHECK(find_metric("tpot_ms")->improves == Improves::kLower);
  CHECK(find_metric("request_throughput_rps")->improves == Improves::kHigher);
  CHECK(find_metric("good_fraction")->improves == Improves::kHigher);
  CHECK(find_metric("peak_memory_bytes")->unit == "bytes");
  CHECK(find_metric("input_tokens")->improves == Improves::kNeither);
  CHECK(find_metric("ttft_ms")->per_request);
  CHECK_FALSE(find_metric("send_lag_ms")->per_request);
  CHECK_FALSE(find_metric("allreduce_avg_busbw_gbps").has_value());  // bench-comm's, unlisted
  CHECK(find_metric("request_throughput_rps")->paced_by_arrivals);
  CHECK_FALSE(find_metric("goodput_rps")->paced_by_arrivals);  // moves with latency
  CHECK_FALSE(find_metric("tpot_ms")->paced_by_arrivals);
  CHECK(find_metric("ttft_ms")->upper_bound() == 1e10);
  CHECK(find_metric("error_share")->upper_bound() == 1.0);
  CHECK(find_metric("peak_memory_bytes")->upper_bound() == 1e18);
}

}  // namespace infergate
