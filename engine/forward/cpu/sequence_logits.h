// Every position's next-token logits of one token sequence, computed by the optimized forward
// pass as one prefill into a private KV cache (fp32 unless asked otherwise): what
// `infergate logits` prints and `infergate eval` scores.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/model/model_weights.h"
#include "kernels/cpu/thread_pool.h"

namespace infergate {

// Row p (vocab_size floats) holds the logits after tokens[0..p]. tokens must be non-empty,
// within the vocabulary and no longer than max_position_embeddings (the caller checks).
// `kv_dtype`: the cache's storage; the prefill's attention reads what it wrote, so a quantized
// cache's error is in every row past the first.
std::vector<float> sequence_logits(const ModelWeights& weights, const std::vector<int32_t>& tokens,
                                   ThreadPool& pool, DType kv_dtype = DType::kF32);

}  // namespace infergate
