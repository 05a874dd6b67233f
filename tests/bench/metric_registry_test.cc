// The metric registry (common/results/metric_registry.h) and what the harness writes agree: every
// summary key is declared, with its shape, and nothing is declared that the summary lacks.
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "bench/results/results_json.h"
#include "common/results/metric_registry.h"

namespace infergate {

TEST_CASE("the metric registry declares exactly the summary keys a run writes, with their shape") {
  RunSummary summary;
  summary.peak_gpu_memory_bytes = 1.0;  // optional: written as null without NVML
  const nlohmann::json written = summary_to_json(summary);
  std::set<std::string> declared;
  for (const MetricInfo& m : run_summary_metrics()) {
    declared.insert(std::string(m.name));
    INFO(m.name);
    REQUIRE(written.contains(m.name));
    CHECK(written.at(std::string(m.name)).is_object() == m.distribution);
    if (m.per_request) CHECK(m.distribution);
  }
  for (const auto& [key, value] : written.items()) {
    INFO(key);
    CHECK(declared.count(key) == 1);
  }
  CHECK(declared.size() == run_summary_metrics().size());  // no name twice
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
}

}  // namespace infergate
