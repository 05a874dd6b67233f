// The optimized forward pass over a flattened batch with a paged KV cache. Built from the
// kernels/ ops; tested against reference_forward().
#pragma once

#include <cstdint>
#include <vector>

#include "engine/kv/kv_cache_storage.h"
#include "engine/model/batch_input.h"
#include "engine/model/model_weights.h"
#include "kernels/cpu/thread_pool.h"

namespace infergate {

class Transformer {
 public:
  Transformer(const ModelWeights& weights, ThreadPool& pool);

  // Writes the batch's K/V into `cache` and returns logits [logits_rows.size(), vocab].
  std::vector<float> forward(const BatchInput& batch, KvCacheStorage& cache);
  // Peak bytes of activation scratch buffers so far (the memory ledger's "workspace").
  size_t workspace_bytes() const;

 private:
  struct Scratch {
    std::vector<float> x, h, q, k, v, attn, gate, up, tmp;
  };
  void attention_block(int layer, const BatchInput& batch, KvCacheStorage& cache);
  void ffn_block(int layer, int64_t num_tokens);
  void dense_ffn(const FfnWeights& ffn, const float* in, int64_t rows, float* out);
  void moe_ffn(const LayerWeights& layer, int64_t num_tokens);
  void grow(int64_t num_tokens);

  const ModelWeights& w_;
  ThreadPool& pool_;
  Scratch s_;
};

}  // namespace infergate
