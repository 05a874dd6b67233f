// What the HTML reports plot, taken from a results file (docs/results-schema.md): pooled
// per-request latencies and their distribution, resource timelines, the sweep's
// throughput-latency points and the engine's time per step phase.
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/report/svg_chart.h"
#include "common/results/metric_key.h"
#include "common/results/results_file.h"

namespace infergate {

// The phases of `engine.step_time_ms`, in the order the engine runs them.
inline constexpr std::array<const char*, 5> kStepPhases = {"schedule", "execute", "sample",
                                                           "update", "injected_delay"};

// Per-request values of `metric` (ttft_ms, tpot_ms, itl_ms, e2e_ms) pooled over the point's
// repetitions; empty without request records.
std::vector<double> pooled_request_samples(const PointResult& point, std::string_view metric);
// The empirical CDF of `samples` as (value, fraction <= value), thinned to at most
// `max_points` evenly spaced ranks (the first and last always kept).
std::vector<ChartPoint> empirical_cdf(std::vector<double> samples, size_t max_points = 200);

// A repetition's resource samples as (seconds since its start, value / `scale`) for `field`
// (&TimelineSample::rss_bytes, ::cpu_pct, ...); samples without the value are skipped.
using TimelineField = std::optional<double> TimelineSample::*;
std::vector<ChartPoint> timeline_series(const std::vector<TimelineSample>& timeline,
                                        TimelineField field, double scale = 1);

// (x, y) of every point whose summary has both metrics, in sweep order.
std::vector<ChartPoint> sweep_curve(const ResultsFile& results, const MetricKey& x,
                                    const MetricKey& y);

// Milliseconds per phase of kStepPhases, the mean over the repetitions whose final engine
// statistics have `step_time_ms`; nullopt when none has.
std::optional<std::vector<double>> mean_step_times(const PointResult& point);

}  // namespace infergate
