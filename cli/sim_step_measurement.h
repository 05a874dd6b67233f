// Real engine steps of known shapes, timed on this machine: what `infergate sim calibrate`
// fits the simulator to. Prefills of several lengths, decode batches of several sizes and
// contexts, and decode batches with a prefill chunk among them, each the median of a few
// repetitions; a step whose scheduled tokens are not the intended shape is dropped.
#pragma once

#include <utility>
#include <vector>

#include "engine/core/engine_config.h"
#include "engine/model/model_weights.h"
#include "sim/calibration_fit.h"

namespace infergate {

struct StepGrid {
  std::vector<int> prefill_tokens = {8, 32, 128, 256, 512, 960};
  std::vector<int> decode_batches = {1, 2, 4, 8, 16, 32};
  std::vector<int> decode_contexts = {32, 128, 512};
  // Decode batches with a prompt among them: (sequences decoding, prompt tokens).
  std::vector<std::pair<int, int>> mixed = {{4, 64}, {8, 128}, {16, 256}};
  int repetitions = 5;
};

std::vector<MeasuredStep> measure_engine_steps(const ModelWeights& weights,
                                               const EngineConfig& config, const StepGrid& grid);

}  // namespace infergate
