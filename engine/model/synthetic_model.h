// Deterministic random weights from a config and a seed: the embedded default model, so the
// suite runs anywhere with no download. Same config and seed give bit-identical weights on
// every platform (own RNG and Box-Muller, no std:: distributions).
#pragma once

#include <cstdint>

#include "engine/model/model_weights.h"

namespace infergate {

// Weights are generated in fp32; convert_matrices() gives other dtypes. Init scales keep
// activations finite across layers and make logits peaked enough for greedy decoding to
// be stable (std ~ 1/sqrt(fan_in) everywhere; RMSNorm absorbs the residual stream growth).
ModelWeights make_synthetic_model(const ModelConfig& config, uint64_t seed);

}  // namespace infergate
