// Every metric a run's summary holds (docs/results-schema.md), declared once: its unit, the
// direction it improves in and whether the gates can recompute it from per-request records.
// Gates, reports and the harness read this instead of guessing from name suffixes; a metric
// not listed (a collectives benchmark's per-operation figures) has no unit and no direction.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace infergate {

enum class Improves { kLower, kHigher, kNeither };

struct MetricInfo {
  std::string_view name;  // the summary key: "tpot_ms"
  std::string_view unit;  // as reports print it: "ms", "req/s", "" for a plain count or share
  Improves improves = Improves::kNeither;
  bool distribution = false;  // an object of count, mean, min, p50, p90, p95, p99, max
  bool per_request = false;   // its stats can be recomputed from the per-request records
};

// The run summary's metrics, in the order the results file writes them.
std::span<const MetricInfo> run_summary_metrics();

// The metric called `name`, or nullopt.
std::optional<MetricInfo> find_metric(std::string_view name);

}  // namespace infergate
