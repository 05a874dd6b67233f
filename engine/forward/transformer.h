// The optimized forward pass over a flattened batch with a paged KV cache. Built from the
// kernels/ ops; tested against reference_forward(). Projection matrices are packed once at
// construction into the GEMM kernels' panel layout, fused where they share an input (q|k|v,
// gate|up): after that the forward never reads the row-major matrices of `weights`.
// With a ModelShard, `weights` are one rank's part (its layers, heads, FFN width, vocabulary
// rows or experts) and the forward calls the group's collectives where the parts meet.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/forward/batch_input.h"
#include "engine/kv/kv_cache_storage.h"
#include "engine/model/model_shard.h"
#include "engine/model/model_weights.h"
#include "kernels/cpu/packed_weight.h"
#include "kernels/cpu/thread_pool.h"
#include "kernels/rope_frequencies.h"

namespace infergate {

class Transformer {
 public:
  // `shard` and `comm` (both or neither; they must outlive this) make it one rank's part.
  Transformer(const ModelWeights& weights, ThreadPool& pool, const ModelShard* shard = nullptr,
              ShardCollectives* comm = nullptr);

  // Writes the batch's K/V into `cache` and returns logits [logits_rows.size(), vocab]:
  // embed(), run_layers(), logits(). Pipeline stages call the parts they hold.
  std::vector<float> forward(const BatchInput& batch, KvCacheStorage& cache);
  // The hidden states [num_tokens, hidden] of the batch's tokens, from the embedding table.
  void embed(const BatchInput& batch);
  // The hidden states in and out of a pipeline stage: [num_tokens, hidden], valid for n rows.
  float* hidden(int64_t num_tokens);
  // This weights' layers over the hidden states, writing their K/V into `cache`.
  void run_layers(const BatchInput& batch, KvCacheStorage& cache);
  // Final norm and LM head for the rows to sample: [logits_rows.size(), full vocabulary].
  std::vector<float> logits(const BatchInput& batch);
  // Peak bytes of activation scratch buffers so far (the memory ledger's "workspace").
  size_t workspace_bytes() const;
  // Bytes of the weights the forward reads: packed projections plus the row-major tensors it
  // still uses (embeddings, norms, biases, MoE router).
  size_t weight_bytes() const;
  // Expert parallelism: (token, expert) rows this rank's experts have computed so far.
  int64_t expert_tokens() const { return expert_tokens_; }

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
  void dense_ffn(const PackedFfn& ffn, const float* in, int64_t rows, float* out);
  struct Routed {
    int64_t token;  // row of the routed rows
    int expert;     // global expert id
    float weight;   // router weight
  };
  std::vector<Routed> route(int layer, const float* h, int64_t rows);
  void run_expert(const PackedFfn& expert, const float* in, const std::vector<int64_t>& pick,
                  float* out);
  void add_shared_expert(const PackedLayer& p, const float* in, int64_t rows, float* acc);
  void moe_ffn(int layer, int64_t num_tokens);
  // Expert parallelism's exchange: rows per peer each way, and what this rank received.
  struct ExpertExchange {
    std::vector<size_t> sent, received;  // rows to / from each rank of the group
    std::vector<float> rows;             // received rows [sum(received), hidden]
    std::vector<int32_t> experts;        // each received row's expert, indexed on this rank
  };
  ExpertExchange dispatch_to_experts(const std::vector<Routed>& routed, const float* h,
                                     int64_t per_rank);
  std::vector<float> run_received(const PackedLayer& p, const ExpertExchange& x);
  void moe_ffn_expert_parallel(int layer, int64_t num_tokens);
  void reduce_partial_sums(float* x, int64_t count);  // tensor parallel: all-reduce
  void grow(int64_t num_tokens);

  const ModelWeights& w_;
  const RopeFrequencies rope_;
  ThreadPool& pool_;
  const ModelShard* shard_;
  ShardCollectives* comm_;
  std::vector<PackedLayer> layers_;
  PackedWeight lm_head_;
  Scratch s_;
  std::vector<float> expert_in_, shared_out_, gathered_;  // MoE scratch
  int64_t expert_tokens_ = 0;  // expert parallel: (token, expert) rows this rank computed
};

}  // namespace infergate
