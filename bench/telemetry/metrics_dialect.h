// The metric names of the LLM servers the harness can read, mapped to one set of fields
// (docs/metrics.md, "The server's side"): infergate serve (prefix infergate:), vLLM (vllm:, with
// the names older versions used as fallbacks), SGLang (sglang:) and llama-server (llamacpp:).
// A dialect is detected from the prefixes a scrape holds, or named by the workload.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench/telemetry/histogram_quantile.h"
#include "bench/telemetry/prometheus_text.h"

namespace infergate {

// Per field, the names to try in order (the first present wins); empty when the server has none.
struct MetricsDialect {
  std::string name;    // "infergate", "vllm", "sglang", "llamacpp"
  std::string prefix;  // "infergate:", ...
  std::vector<std::string> running, waiting, kv_usage, preemptions;
  std::vector<std::string> prefix_queries, prefix_hits;  // counters (tokens)
  std::vector<std::string> prefix_hit_rate;              // a gauge, where counters are absent
  std::vector<std::string> ttft, itl;                    // histograms, in seconds
};

// Every dialect known, in detection order.
const std::vector<MetricsDialect>& metrics_dialects();
// The dialect called `name`, or nullptr.
const MetricsDialect* find_metrics_dialect(const std::string& name);
// The dialect whose prefix most samples carry; nullptr when none carries a known prefix.
const MetricsDialect* detect_metrics_dialect(const std::vector<PrometheusSample>& samples);

// One scrape read through a dialect. Gauges and counters are summed over their label sets
// (several engines of one server), except kv_usage, their mean (a fraction).
struct ServerReading {
  std::optional<double> running, waiting, kv_usage, preemptions;
  std::optional<double> prefix_queries, prefix_hits, prefix_hit_rate;
  std::optional<HistogramSnapshot> ttft, itl;
};
ServerReading read_server_metrics(const std::vector<PrometheusSample>& samples,
                                  const MetricsDialect& dialect);

}  // namespace infergate
