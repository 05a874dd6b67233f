#include "cli/history_calibrate.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "common/io/json_file.h"
#include "gates/verdict/verdict.h"

namespace infergate {

namespace {

std::string share(int count, int trials) {
  char text[48];
  std::snprintf(text, sizeof(text), "%d/%d (%.1f%%)", count, trials,
                trials == 0 ? 0.0 : 100.0 * count / trials);
  return text;
}

std::string step_text(double step) {
  if (std::isnan(step)) return "> 90%";
  char text[32];
  std::snprintf(text, sizeof(text), ">= %.1f%%", step * 100);
  return text;
}

void write_text(std::ostream& out, const std::vector<DetectCalibration>& rows,
                const DetectCalibrationSettings& s) {
  out << "A/A calibration of history detect: " << s.trials << " histories of " << s.length
      << " commits drawn from the stored runs, each also with a " << int(std::lround(s.step * 100))
      << "% worse step\n";
  out << "| series | runs | run CV | false change points | step found | step found 95% | "
         "in stored order |\n|---|---|---|---|---|---|---|\n";
  for (const DetectCalibration& r : rows) {
    char cv[32];
    std::snprintf(cv, sizeof(cv), "%.2f%%", r.run_cv * 100);
    out << "| " << describe(r.series) << " | " << r.runs << " | " << cv << " | "
        << share(r.false_alarms, r.trials) << " | " << share(r.detected, r.trials) << " | "
        << step_text(r.step_found_95) << " | " << r.in_order << " |\n";
  }
}

nlohmann::json to_json(const std::vector<DetectCalibration>& rows,
                       const DetectCalibrationSettings& s) {
  nlohmann::json list = nlohmann::json::array();
  for (const DetectCalibration& r : rows) {
    list.push_back(
        {{"workload", r.series.workload},
         {"machine_key", r.series.machine_key},
         {"sweep", r.series.sweep},
         {"metric", r.series.metric},
         {"runs", r.runs},
         {"run_cv", r.run_cv},
         {"trials", r.trials},
         {"false_alarms", r.false_alarms},
         {"detected", r.detected},
         {"step_found_95",
          std::isnan(r.step_found_95) ? nlohmann::json(nullptr) : nlohmann::json(r.step_found_95)},
         {"in_stored_order", r.in_order}});
  }
  return {{"schema", "infergate.detect_calibration/v1"},
          {"trials", s.trials},
          {"length", s.length},
          {"step", s.step},
          {"alpha", s.detect.e_divisive.alpha},
          {"min_effect", s.detect.min_effect},
          {"series", std::move(list)}};
}

}  // namespace

int history_calibrate(const HistoryStore& store, const CalibrateRequest& request) {
  SeriesFilter filter = request.filter;
  filter.per_run = true;
  if (filter.metrics.empty()) filter.metrics = default_detect_metrics();
  std::vector<DetectCalibration> rows;
  for (const MetricSeries& s :
       build_metric_series(store.runs(filter.workload), store.metrics(filter.workload), filter)) {
    rows.push_back(calibrate_detection(s, request.settings));
  }
  if (rows.empty()) {
    throw std::invalid_argument("no stored runs of workload '" + filter.workload +
                                "' with the metrics asked for (see history list)");
  }
  std::ostringstream text;
  if (request.format == "json") {
    text << to_json(rows, request.settings).dump(2) << "\n";
  } else {
    write_text(text, rows, request.settings);
  }
  if (request.out.empty()) {
    std::cout << text.str();
  } else {
    write_text_atomically(text.str(), request.out);
  }
  return kExitPass;
}

}  // namespace infergate
