// Per-request latency samples recomputed from a repetition's request records, so the gates can
// resample requests when estimating a percentile's uncertainty. Definitions are those of
// docs/metrics.md (and bench/metrics/summarize.cc): measured (non-warm-up) ok requests only.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <vector>

#include "common/results/recorded_request.h"

namespace infergate {

// Checks what request_samples() reads from every record: "status" one of ok, error, aborted;
// "warmup" a boolean; times (scheduled_ms, first_token_ms, finished_ms, token_times_ms) null or
// finite numbers in [0, 1e10] ms, in order (scheduled <= first token <= finish, token times
// non-decreasing); "output_tokens" a count equal to the number of token times. Throws
// std::invalid_argument naming the record and field: "[3].first_token_ms: -5 is negative".
void check_request_records(const nlohmann::json& requests);
// Values of `metric` (ttft_ms, tpot_ms, itl_ms or e2e_ms) from a repetition's records; empty
// when there are none or the metric is not per request.
std::vector<double> request_samples(const std::vector<RecordedRequest>& requests,
                                    std::string_view metric);
// numpy.percentile(method="linear") of sorted, non-empty `sorted`; p in [0, 100].
double linear_percentile(const std::vector<double>& sorted, double p);
// A summary statistic (mean, min, max, p50, p90, p95, p99) of `samples`; nullopt when empty
// or `stat` is unknown.
std::optional<double> sample_statistic(std::vector<double> samples, std::string_view stat);

}  // namespace infergate
