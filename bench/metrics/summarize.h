// From per-request records to a run's statistics. Every definition is in docs/metrics.md; this
// is its one implementation.
#pragma once

#include <vector>

#include "bench/metrics/request_record.h"
#include "bench/workload/workload.h"
#include "common/results/run_summary.h"

namespace infergate {

// count, mean, min, max and the p50/p90/p95/p99 percentiles by linear interpolation between
// closest ranks (numpy's default). All zeros when `values` is empty.
StatSummary summarize_values(std::vector<double> values);

// A request's worst latency against its bound: the largest of ttft / slo.ttft_ms, tpot /
// slo.tpot_ms and e2e / slo.e2e_ms over the bounds given, infinite for a failed request (or a
// missing TTFT or E2E), 0 without bounds. It meets the SLO (goodput) exactly when this is <= 1.
double request_slo_ratio(const RequestRecord& r, const SloSpec& slo);

// The statistics of one run over its non-warm-up records. Leaves the telemetry fields
// (peak_memory_bytes, utilization_pct, ...) at zero for the driver to fill.
RunSummary summarize_run(const std::vector<RequestRecord>& records, const SloSpec& slo);

}  // namespace infergate
