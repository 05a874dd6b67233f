#include "engine/cuda/cuda_transformer.h"

#include <algorithm>
#include <cmath>

#include "common/util/nvtx_range.h"
#include "engine/core/batch_padding.h"
#include "kernels/cuda/attention_decode.h"
#include "kernels/cuda/attention_prefill.h"
#include "kernels/cuda/embedding.h"
#include "kernels/cuda/rms_norm.h"
#include "kernels/cuda/rope.h"
#include "kernels/cuda/split_qkv.h"

namespace infergate::cuda {

namespace {

// Copies device data into `host` (its size says how much) and waits: kernel faults of the whole
// step surface here, named.
template <typename T>
void download(const T* device, std::vector<T>& host, cudaStream_t stream) {
  if (!host.empty()) {
    INFERGATE_CUDA_CHECK(cudaMemcpyAsync(host.data(), device, host.size() * sizeof(T),
                                         cudaMemcpyDeviceToHost, stream));
  }
  INFERGATE_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace

CudaTransformer::CudaTransformer(const ModelWeights& weights, GemmChoice gemm, cudaStream_t stream,
                                 CudaGraphSettings graphs)
    : config_(weights.config), stream_(stream), model_(upload_model(weights)), gemm_(gemm, stream) {
  // What this forward cannot run (sliding windows, graphs of MoE layers, our GEMM on f32) is
  // refused before it is built, from engine/core/cuda_limits.h.
  if (graphs.max_batch <= 0) return;
  graphs_ = std::make_unique<DecodeGraphs>(graphs.max_batch);
  graph_context_bound_ = graphs.max_context_len;
}

size_t CudaTransformer::workspace_bytes() const {
  size_t total = inputs_.bytes() + gemm_.workspace_bytes() + ffn_.workspace_bytes() +
                 moe_.workspace_bytes() + s_.decode_workspace.bytes() +
                 s_.sample_workspace.bytes() + s_.tokens.bytes() + s_.sampling.bytes();
  for (const auto* b :
       {&s_.x, &s_.h, &s_.tmp, &s_.qkv, &s_.q, &s_.k, &s_.v, &s_.attn, &s_.rows, &s_.logits}) {
    total += b->bytes();
  }
  return total;
}

// The buffers a graph's kernels read or write (sampling runs after the graph): grow-only, so
// their total changes exactly when one of them moved.
size_t CudaTransformer::graph_buffer_bytes() const {
  return workspace_bytes() - s_.sample_workspace.bytes() - s_.tokens.bytes() - s_.sampling.bytes();
}

void CudaTransformer::grow(int64_t n, int64_t logits_rows) {
  const ModelConfig& c = config_;
  for (auto* b : {&s_.x, &s_.h, &s_.tmp}) b->ensure(size_t(n * c.hidden_size));
  s_.qkv.ensure(size_t(n * (c.q_size() + 2 * c.kv_size())));
  s_.q.ensure(size_t(n * c.q_size()));
  s_.attn.ensure(size_t(n * c.q_size()));
  s_.k.ensure(size_t(n * c.kv_size()));
  s_.v.ensure(size_t(n * c.kv_size()));
  s_.rows.ensure(size_t(logits_rows * c.hidden_size));
  s_.logits.ensure(size_t(logits_rows * c.vocab_size));
}

void CudaTransformer::compute_logits(const BatchInput& batch, DeviceKvCache& cache) {
  const int block_size = cache.layer(0).block_size;
  const int64_t size =
      graphs_ && is_decode_only(batch) ? graphs_->size_for(int64_t(batch.sequences.size())) : 0;
  if (size == 0) {  // eager
    const int64_t n = batch.num_tokens(), rows = int64_t(batch.logits_rows.size());
    grow(n, rows);
    inputs_.upload(batch, block_size, stream_);
    run_forward(n, rows, cache);
    return;
  }
  grow(size, size);
  inputs_.upload(pad_decode_batch(batch, size), block_size, stream_, graph_context_bound_);
  graphs_->run(
      size, stream_, [&] { run_forward(size, size, cache); },
      [this] { return graph_buffer_bytes(); });
}

void CudaTransformer::run_forward(int64_t n, int64_t rows, DeviceKvCache& cache) {
  const ModelConfig& c = config_;
  embedding_lookup(model_.embed.data(), c.vocab_size, c.hidden_size, 0, inputs_.token_ids(), n,
                   s_.x.data(), stream_);
  rms_norm(s_.x.data(), model_.layers[0].attn_norm.data(), n, c.hidden_size, c.rms_norm_eps,
           s_.h.data(), stream_);
  for (int l = 0; l < c.num_layers; ++l) {
    attention_block(l, n, cache);
    ffn_block(l, n);
  }
  // s_.h holds every row after the final norm; gather the rows to sample (the embedding gather
  // over a table of n rows is exactly that), then the LM head.
  embedding_lookup(s_.h.data(), n, c.hidden_size, 0, inputs_.logits_rows(), rows, s_.rows.data(),
                   stream_);
  gemm_.project(s_.rows.data(), rows, model_.lm_head, s_.logits.data());
}

std::vector<float> CudaTransformer::forward(const BatchInput& batch, DeviceKvCache& cache) {
  NvtxRange range("forward");
  compute_logits(batch, cache);
  std::vector<float> logits(batch.logits_rows.size() * size_t(config_.vocab_size));
  download(s_.logits.data(), logits, stream_);
  return logits;
}

std::vector<int32_t> CudaTransformer::forward_and_sample(
    const BatchInput& batch, DeviceKvCache& cache,
    const std::vector<DeviceSamplingParams>& params) {
  NvtxRange range("forward");
  compute_logits(batch, cache);
  const int64_t rows = int64_t(batch.logits_rows.size()), vocab = config_.vocab_size;
  int32_t* tokens = s_.tokens.ensure(size_t(rows));
  const bool greedy = std::all_of(params.begin(), params.end(), [](const DeviceSamplingParams& p) {
    return !(p.temperature > 0.0f) || p.top_k == 1;
  });
  if (greedy) {  // no sort needed
    argmax_rows(s_.logits.data(), rows, vocab, tokens, stream_);
  } else {
    void* workspace = s_.sample_workspace.ensure(sample_rows_workspace_bytes(rows, vocab));
    sample_rows(s_.logits.data(), s_.sampling.upload(params, stream_), rows, vocab, tokens,
                workspace, stream_);
  }
  std::vector<int32_t> out(static_cast<size_t>(rows));
  download(tokens, out, stream_);
  return out;
}

// In: s_.h = attn_norm(x). Out: x += attention; s_.tmp = ffn_norm(x).
void CudaTransformer::attention_block(int layer, int64_t n, DeviceKvCache& cache) {
  const ModelConfig& c = config_;
  const DeviceLayer& l = model_.layers[size_t(layer)];
  gemm_.project(s_.h.data(), n, l.qkv, s_.qkv.data());
  split_qkv(s_.qkv.data(), n, c.q_size(), c.kv_size(), l.bq.size() ? l.bq.data() : nullptr,
            l.bk.size() ? l.bk.data() : nullptr, l.bv.size() ? l.bv.data() : nullptr, s_.q.data(),
            s_.k.data(), s_.v.data(), stream_);
  if (l.q_norm.size()) {  // Qwen3: each head's q and k normalized before rotation
    rms_norm(s_.q.data(), l.q_norm.data(), n * c.num_heads, c.head_dim, c.rms_norm_eps, s_.q.data(),
             stream_);
    rms_norm(s_.k.data(), l.k_norm.data(), n * c.num_kv_heads, c.head_dim, c.rms_norm_eps,
             s_.k.data(), stream_);
  }
  const float* inv_freq = model_.rope_inv_freq.data();
  rope_neox(s_.q.data(), inputs_.positions(), n, c.num_heads, c.head_dim, inv_freq,
            model_.rope_scale, stream_);
  rope_neox(s_.k.data(), inputs_.positions(), n, c.num_kv_heads, c.head_dim, inv_freq,
            model_.rope_scale, stream_);
  cache.write(layer, s_.k.data(), s_.v.data(), inputs_.slot_mapping(), n, stream_);
  attention(layer, cache);
  gemm_.project(s_.attn.data(), n, l.o, s_.tmp.data());
  add_rms_norm(s_.tmp.data(), s_.x.data(), l.ffn_norm.data(), n, c.hidden_size, c.rms_norm_eps,
               stream_);
}

// Every row of s_.attn is written by exactly one of the two kernels.
void CudaTransformer::attention(int layer, DeviceKvCache& cache) {
  const ModelConfig& c = config_;
  const DeviceKvLayer kv = cache.layer(layer);
  const float scale = 1.0f / std::sqrt(float(c.head_dim));
  const DeviceAttentionBatch& decodes = inputs_.decodes();
  if (decodes.num_seqs > 0) {
    void* workspace = s_.decode_workspace.ensure(attention_decode_workspace_bytes(
        decodes.num_seqs, c.num_heads, c.head_dim, decodes.max_context_len));
    attention_decode(s_.q.data(), decodes, kv, c.num_heads, scale, s_.attn.data(), workspace,
                     stream_);
  }
  if (inputs_.prefills().num_seqs > 0) {
    attention_prefill(s_.q.data(), inputs_.prefills(), kv, c.num_heads, scale, s_.attn.data(),
                      stream_);
  }
}

// In: s_.tmp = ffn_norm(x). Out: x += ffn; s_.h = the next layer's attn_norm(x) (or the final
// norm after the last layer).
void CudaTransformer::ffn_block(int layer, int64_t n) {
  const ModelConfig& c = config_;
  const DeviceLayer& l = model_.layers[size_t(layer)];
  if (c.is_moe()) {
    moe_.run(gemm_, ffn_, l, c, s_.tmp.data(), n, s_.h.data());
  } else {
    ffn_.run(gemm_, l.ffn, s_.tmp.data(), n, s_.h.data());
  }
  add_rms_norm(s_.h.data(), s_.x.data(), next_norm(layer), n, c.hidden_size, c.rms_norm_eps,
               stream_);
}

const float* CudaTransformer::next_norm(int layer) const {
  return layer + 1 < config_.num_layers ? model_.layers[size_t(layer + 1)].attn_norm.data()
                                        : model_.final_norm.data();
}

}  // namespace infergate::cuda
