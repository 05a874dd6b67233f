// The optimized forward pass over a flattened batch with a paged KV cache. Built from the
// kernels/ ops; tested against reference_forward(). Projection matrices are packed once at
// construction into the GEMM kernels' panel layout, fused where they share an input (q|k|v,
// gate|up): after that the forward never reads the row-major matrices of `weights`.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/kv/kv_cache_storage.h"
#include "engine/model/batch_input.h"
#include "engine/model/model_weights.h"
#include "kernels/cpu/packed_weight.h"
#include "kernels/cpu/thread_pool.h"

namespace infergate {

class Transformer {
 public:
  Transformer(const ModelWeights& weights, ThreadPool& pool);

  // Writes the batch's K/V into `cache` and returns logits [logits_rows.size(), vocab].
  std::vector<float> forward(const BatchInput& batch, KvCacheStorage& cache);
  // Peak bytes of activation scratch buffers so far (the memory ledger's "workspace").
  size_t workspace_bytes() const;
  // Bytes of the weights the forward reads: packed projections plus the row-major tensors it
  // still uses (embeddings, norms, biases, MoE router).
  size_t weight_bytes() const;

 private:
  struct PackedFfn {
    PackedWeight gate_up;  // [gate | up] rows
    PackedWeight down;
  };
  struct PackedLayer {
    PackedWeight qkv;  // [q | k | v] rows
    PackedWeight o;
    PackedFfn ffn;
    std::vector<PackedFfn> experts;
    PackedFfn shared_expert;
  };
  static PackedFfn pack_ffn(const FfnWeights& f);

  struct Scratch {
    std::vector<float> x, h, qkv, q, k, v, attn, gate_up, act, tmp;
  };
  void attention_block(int layer, const BatchInput& batch, KvCacheStorage& cache);
  void ffn_block(int layer, int64_t num_tokens);
  void split_qkv(int64_t num_tokens);
  void dense_ffn(const PackedFfn& ffn, const float* in, int64_t rows, float* out);
  void moe_ffn(int layer, int64_t num_tokens);
  void grow(int64_t num_tokens);

  const ModelWeights& w_;
  ThreadPool& pool_;
  std::vector<PackedLayer> layers_;
  PackedWeight lm_head_;
  Scratch s_;
};

}  // namespace infergate
