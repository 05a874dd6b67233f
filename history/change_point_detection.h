// Change points in a metric's history (docs/gates.md, "Change points across history"):
// E-Divisive with means over the commits' means, kept only where the change between the
// neighbouring segments is at least a minimum effect, each with its commit range, magnitude,
// interval and p-value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/stats/bootstrap.h"
#include "common/stats/e_divisive.h"
#include "history/metric_series.h"

namespace infergate {

struct DetectSettings {
  EDivisiveOptions e_divisive;
  double min_effect = 0.05;   // |after / before - 1| below this is not reported
  double confidence = 0.95;   // of the magnitude's interval
  size_t max_points = 2'000;  // the newest commits of a series that are examined
};

struct ChangePoint {
  int64_t id = 0;  // once recorded in the history
  SeriesKey series;
  size_t index = 0;                         // the series position of the first changed commit
  std::string commit_before, commit_after;  // the range: (commit_before, commit_after]
  int64_t run_before = 0, run_after = 0;    // their newest / oldest stored run
  std::string created_after;                // commit_after's first run
  double mean_before = 0, mean_after = 0;   // of the neighbouring segments' commit means
  RelativeChange change;  // after / before - 1, hierarchical bootstrap over commits and repetitions
  double p_value = 1;
  std::string direction;     // "worse", "better" (by the metric registry) or "changed"
  std::string found_commit;  // set by history bisect
};

// What history detect examines without --metric: the default gate's metrics.
const std::vector<std::string>& default_detect_metrics();

// The change points of one series, oldest first. Deterministic for given settings.
std::vector<ChangePoint> detect_change_points(const MetricSeries& series,
                                              const DetectSettings& settings);

// Whether the newest commit of `series` completes a worsening change point: one detected with
// it that is not detected without it. What ci/perf-gate.sh fails on (exit 6).
std::vector<ChangePoint> completed_by_newest(const MetricSeries& series,
                                             const DetectSettings& settings);

}  // namespace infergate
