// Every position's next-token logits of one token sequence, computed by the optimized forward
// pass as one prefill into a private fp32 KV cache: what `infergate logits` prints and
// `infergate eval` scores.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/model/model_weights.h"
#include "kernels/cpu/thread_pool.h"

namespace infergate {

// Row p (vocab_size floats) holds the logits after tokens[0..p]. tokens must be non-empty,
// within the vocabulary and no longer than max_position_embeddings (the caller checks).
std::vector<float> sequence_logits(const ModelWeights& weights, const std::vector<int32_t>& tokens,
                                   ThreadPool& pool);

}  // namespace infergate
