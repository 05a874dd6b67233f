// `infergate history calibrate`: history detect's false-alarm rate and power, measured on the
// stored runs of one workload taken as an A/A history (docs/history.md, "Calibration").
#pragma once

#include <string>

#include "history/detect_calibration.h"
#include "history/history_store.h"

namespace infergate {

struct CalibrateRequest {
  SeriesFilter filter;  // filter.per_run is set: every run its own point
  DetectCalibrationSettings settings;
  std::string format = "text";
  std::string out;
};

int history_calibrate(const HistoryStore& store, const CalibrateRequest& request);

}  // namespace infergate
