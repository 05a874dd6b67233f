// The transformer, written once: dense and mixture-of-experts decoder layers (Llama, Mistral,
// Qwen2/3, Mixtral) over a flattened batch with a paged KV cache, as a sequence of backend ops
// (forward_ops.h). The CPU runs it through engine/forward/cpu/cpu_transformer.h, the GPU through
// engine/cuda; reference_forward() is the plain oracle it is tested against, kept apart on
// purpose. Projections are prepared once at construction, fused where they share an input
// (q|k|v, gate|up).
// With a ModelShard, `weights` are one rank's part (its layers, heads, FFN width, vocabulary
// rows or experts) and the forward calls the group's collectives where the parts meet.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/forward/batch_input.h"
#include "engine/forward/forward_ops.h"
#include "engine/model/model_shard.h"
#include "engine/model/model_weights.h"
#include "kernels/rope_frequencies.h"

namespace infergate {

class Transformer {
 public:
  // `ops` (and `shard`, when given) must outlive this.
  Transformer(const ModelWeights& weights, ForwardOps& ops, const ModelShard* shard = nullptr);

  // Binds a step: its inputs, and the cache its layers write (null for a backend that owns
  // its cache). Then embed(), run_layers(), logits_to(), or the parts a pipeline stage holds.
  void begin(const BatchInput& batch, KvCacheStorage* cache);
  // The hidden states [num_tokens, hidden] of the step's tokens, from the embedding table.
  void embed();
  // The hidden states in and out of a pipeline stage: [num_tokens, hidden], valid for n rows.
  float* hidden(int64_t num_tokens);
  // This weights' layers over the hidden states, writing their K/V into the cache.
  void run_layers();
  // Final norm and LM head for the rows to sample: [logits_rows.size(), this rank's vocabulary
  // rows] into `out` (the backend's memory).
  void logits_to(float* out);
  // Bytes of the weights the forward reads: prepared projections plus the row-major tensors
  // it still uses (embeddings, norms, biases, MoE router).
  size_t weight_bytes() const;
  const ModelConfig& config() const { return w_.config; }

 private:
  struct Layer {
    std::unique_ptr<OpWeight> qkv;  // [q | k | v] rows
    std::unique_ptr<OpWeight> o;
    OpFfn ffn;
    OpMoe moe;
    const float *attn_norm, *ffn_norm, *bq, *bk, *bv, *q_norm, *k_norm;
  };
  struct Buffers {
    float *x, *h, *qkv, *q, *k, *v, *attn, *tmp;
  };
  OpFfn prepare_ffn(const FfnWeights& f);
  void grow(int64_t num_tokens);
  // In: h = attn_norm(x). Out: x += attention, tmp = ffn_norm(x).
  void attention_block(int layer, int64_t n);
  // In: tmp = ffn_norm(x). Out: x += ffn, and h = the next layer's attn_norm(x) unless this is
  // the last layer these weights hold (a pipeline stage's next stage, or the final norm, starts
  // from x).
  void ffn_block(int layer, int64_t n);
  void reduce_partial_sums(float* x, int64_t count);  // tensor parallel: all-reduce

  const ModelWeights& w_;
  const RopeFrequencies rope_;
  ForwardOps& ops_;
  const ModelShard* shard_;
  std::vector<Layer> layers_;
  std::unique_ptr<OpWeight> lm_head_;
  const float* final_norm_;
  const BatchInput* batch_ = nullptr;  // the bound step
  Buffers b_{};
};

}  // namespace infergate
