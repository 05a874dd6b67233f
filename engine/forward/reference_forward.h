// The correctness oracle: the plainest possible forward pass. One sequence, no KV cache, full
// causal attention recomputed from scratch, every dot product accumulated in double. Slow by
// design; every optimized path is tested against it.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/model/model_weights.h"

namespace infergate {

// Logits for every position of `tokens`: result[t * vocab + v].
std::vector<float> reference_forward(const ModelWeights& weights,
                                     const std::vector<int32_t>& tokens);

// Indices of the top-k experts for one router logit row, highest first, ties to lower index.
std::vector<int> top_k_experts(const std::vector<double>& router_logits, int k);

}  // namespace infergate
