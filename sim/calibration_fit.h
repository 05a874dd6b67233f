// Fitting a calibration to measured step times (`infergate sim calibrate`): the efficiencies
// and fixed costs that make the step cost model agree best with the steps this machine ran,
// by least squares on the log of predicted over measured time (every step counts by its ratio,
// so a 1 ms decode step weighs as much as a 100 ms prefill).
#pragma once

#include <string>
#include <vector>

#include "engine/model/model_config.h"
#include "sim/calibration.h"
#include "sim/hardware_spec.h"
#include "sim/precision.h"
#include "sim/step_cost_model.h"

namespace infergate {

// One measured step: what the scheduler ran and how long the engine's step took.
struct MeasuredStep {
  std::vector<SequenceWork> sequences;
  double seconds = 0;
  std::string kind;  // "prefill" | "decode" | "mixed": for the fit's summary
};

// The steps measured on one model at one precision.
struct MeasuredModel {
  std::string name;
  ModelConfig model;
  Precision precision;
  std::vector<MeasuredStep> steps;
};

// The measurements as a calibration file keeps them (its fit.measurements), so a calibration
// can be refitted without timing again; the reader throws SimFileError naming the field.
nlohmann::json measured_models_to_json(const std::vector<MeasuredModel>& models);
std::vector<MeasuredModel> measured_models_from_json(const nlohmann::json& doc,
                                                     const std::string& file);

// The token counts the fitted compute-efficiency curve has points at.
const std::vector<double>& calibration_curve_tokens();

// Throws std::invalid_argument without steps. The result's `fit` records the steps, the models,
// and the root-mean-square and worst relative error of the fitted model on them.
Calibration fit_calibration(const HardwareSpec& hardware, const std::vector<MeasuredModel>& models);

// The model's time for `step` under `calibration` (one device, no parallelism).
double predicted_step_seconds(const MeasuredModel& model, const HardwareSpec& hardware,
                              const Calibration& calibration, const MeasuredStep& step);

}  // namespace infergate
