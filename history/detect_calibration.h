// How often history detect cries wolf and how often it catches a real change, measured on a
// stored A/A history (runs of the same code): synthetic histories drawn from its runs, with and
// without an injected step (docs/history.md, "Calibration").
#pragma once

#include <cstdint>
#include <vector>

#include "history/change_point_detection.h"
#include "history/metric_series.h"

namespace infergate {

struct DetectCalibrationSettings {
  DetectSettings detect;
  int trials = 1'000;  // synthetic histories, with and without the step each
  size_t length = 30;  // commits in each
  double step = 0.10;  // the injected change, in the direction that makes the metric worse
  uint64_t seed = 1;
};

struct DetectCalibration {
  SeriesKey series;
  size_t runs = 0;      // in the A/A pool
  double run_cv = 0;    // the runs' means: standard deviation / mean
  size_t in_order = 0;  // change points detect finds in the stored order itself
  int trials = 0;
  int false_alarms = 0;  // A/A histories with any change point
  int detected = 0;      // step histories with a worse change point within one commit of it
  // The smallest step found in at least 95% of (kPowerTrials) histories, to within a tenth of
  // itself; NaN when even a 90% step is not.
  double step_found_95 = 0;
};

inline constexpr int kPowerTrials = 200;

// Each trial draws `length` runs of `aa` (one point per run) with replacement, in random order:
// run-to-run noise as measured, without the drift of the stored order (which `in_order`
// covers). The step trial multiplies the points from a position drawn uniformly in
// [2, length - 2] by 1 + step (1 - step for a metric where higher is better).
DetectCalibration calibrate_detection(const MetricSeries& aa,
                                      const DetectCalibrationSettings& settings);

}  // namespace infergate
