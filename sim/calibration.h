// How far below its roofline a device runs, as fitted from measurement (`infergate sim
// calibrate`) or, uncalibrated, as documented defaults (docs/simulator.md, "Calibration").
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/hardware_spec.h"

namespace infergate {

inline constexpr const char* kCalibrationSchema = "infergate.sim-calibration/v1";

// The fraction of peak FLOP/s a GEMM reaches with `tokens` rows (its M dimension).
struct EfficiencyPoint {
  double tokens = 1;
  double efficiency = 1;
};

struct Calibration {
  std::string name = "default";  // "default" or the file it was read from
  std::string hardware;          // the hardware it was fitted on ("" : any)
  // Piecewise linear in log2(tokens), flat beyond the ends; sorted by tokens.
  std::vector<EfficiencyPoint> compute_efficiency = {{1, 0.5}, {64, 0.6}, {512, 0.7}, {4096, 0.75}};
  double memory_efficiency = 0.8;  // of the memory bandwidth
  // Attention reaches this fraction of the GEMMs' roofline (both roofs): its per-sequence
  // small products and softmax run below the projections' rate.
  double attention_efficiency = 1;
  // Fixed costs a roofline does not see: per step (scheduling, synchronization), per scheduled
  // sequence (its sampling and bookkeeping), per token (norms, RoPE, element-wise).
  double step_overhead_s = 0;
  double sequence_overhead_s = 0;
  double token_overhead_s = 0;
  // Per operator launched (a kernel launch, a thread pool's dispatch and join): layers x
  // operators a step.
  double operator_overhead_s = 0;
  nlohmann::json fit;  // how it was fitted: steps, error, when, on which CPU

  double compute_efficiency_at(double tokens) const;
};

// The documented defaults for a device of `hardware.kind` that has not been calibrated.
Calibration default_calibration(const HardwareSpec& hardware);

// Throws SimFileError naming the field.
Calibration parse_calibration(const nlohmann::json& doc, const std::string& file);
Calibration load_calibration(const std::string& path);
nlohmann::json calibration_to_json(const Calibration& calibration);

}  // namespace infergate
