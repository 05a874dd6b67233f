// Calibration for SmoothQuant (engine/model/smooth_quant.h): the largest |activation| per input
// channel at each smoothed site, recorded by the plain reference forward over calibration tokens.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/model/smooth_quant.h"

namespace infergate {

// Runs `tokens` through the reference forward of `w` (one sequence) and records the ranges.
ActivationRanges measure_activation_ranges(const ModelWeights& w,
                                           const std::vector<int32_t>& tokens);

}  // namespace infergate
