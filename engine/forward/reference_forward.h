// The correctness oracle: the plainest possible forward pass. One sequence, no KV cache, full
// causal attention recomputed from scratch, every dot product accumulated in double. Slow by
// design; every optimized path is tested against it.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "engine/model/model_weights.h"

namespace infergate {

// Logits for every position of `tokens`: result[t * vocab + v].
std::vector<float> reference_forward(const ModelWeights& weights,
                                     const std::vector<int32_t>& tokens);

// Where activations enter a layer's matrices: what calibration records. kAttentionInput and
// kFfnInput are the normalized hidden state (hidden values); kDownInput is a dense FFN's
// silu(gate x) * (up x) (intermediate values; MoE layers do not report it).
enum class ActivationSite { kAttentionInput, kFfnInput, kDownInput };
// Called with each token's activation at each site of each layer.
using ActivationObserver =
    std::function<void(int layer, ActivationSite site, const std::vector<double>& x)>;
// The same forward, showing `observe` every activation that enters q/k/v, the FFN and down.
std::vector<float> reference_forward(const ModelWeights& weights,
                                     const std::vector<int32_t>& tokens,
                                     const ActivationObserver& observe);

// Indices of the top-k experts for one router logit row, highest first, ties to lower index.
std::vector<int> top_k_experts(const std::vector<double>& router_logits, int k);

}  // namespace infergate
