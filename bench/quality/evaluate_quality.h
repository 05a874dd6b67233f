// Runs a model and its baseline over the same evaluation tokens and scores the model's quality
// (quality_metrics.h), the way llama.cpp's perplexity tool does: the tokens are cut into chunks
// of `context` tokens, each chunk is one fresh sequence, and in each chunk only the positions of
// its second half predict (the first half is context), positions [context / 2, context - 1)
// predicting the token after them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/quality/quality_metrics.h"
#include "engine/model/model_weights.h"
#include "kernels/cpu/thread_pool.h"

namespace infergate {

struct QualityOptions {
  int64_t context = 512;               // tokens per chunk, 4 .. max_position_embeddings
  int64_t chunks = 0;                  // chunks to score; 0: as many as the tokens fill
  std::string context_name = "--ctx";  // how errors name the context: an option or a field
  DType kv_dtype = DType::kF32;        // the model's KV cache (the baseline's is fp32)
};

// Throws std::invalid_argument naming the option when the models' vocabularies differ, the
// context is out of range, or the tokens do not fill one chunk (or hold an id outside the
// vocabulary).
QualitySummary evaluate_quality(const ModelWeights& baseline, const ModelWeights& model,
                                const std::vector<int32_t>& tokens, const QualityOptions& options,
                                ThreadPool& pool);

}  // namespace infergate
