#include "engine/cuda/cuda_forward_ops.h"

#include <stdexcept>

#include "engine/model/rope_scaling.h"
#include "kernels/cuda/add.h"
#include "kernels/cuda/attention_decode.h"
#include "kernels/cuda/attention_prefill.h"
#include "kernels/cuda/embedding.h"
#include "kernels/cuda/rms_norm.h"
#include "kernels/cuda/rope.h"
#include "kernels/cuda/split_qkv.h"

namespace infergate::cuda {

CudaForwardOps::CudaForwardOps(const ModelConfig& config, GemmChoice gemm, cudaStream_t stream,
                               const ModelShard* shard, ShardCollectives* comm)
    : config_(config), stream_(stream), gemm_(gemm, stream), shard_(shard), comm_(comm) {
  const RopeFrequencies rope = rope_frequencies(config);
  rope_inv_freq_ = DeviceBuffer<float>(rope.inv_freq);
  rope_scale_ = rope.scale;
}

std::unique_ptr<OpWeight> CudaForwardOps::upload(const std::vector<const Tensor*>& parts) {
  auto w = std::make_unique<CudaWeight>(upload_matrix(parts));
  weight_bytes_ += w->nbytes();
  return w;
}

std::unique_ptr<OpWeight> CudaForwardOps::prepare_linear(const std::vector<const Tensor*>& fused) {
  return upload(fused);
}

// As loaded (fp32 in every file we read): device_matrix.h keeps f32, f16 and bf16 as they are.
std::unique_ptr<OpWeight> CudaForwardOps::prepare_router(const Tensor& router) {
  return upload({&router});
}

const float* CudaForwardOps::vector(const Tensor& t) {
  if (!t.defined()) return nullptr;
  auto [it, added] = vectors_.try_emplace(&t);
  if (added) {
    it->second = upload_f32(t);
    weight_bytes_ += it->second.size() * sizeof(float);
  }
  return it->second.data();
}

float* CudaForwardOps::activation(Activation a, size_t floats) {
  return activations_[size_t(a)].ensure(floats);
}

size_t CudaForwardOps::workspace_bytes() const {
  size_t total = inputs_.bytes() + gemm_.workspace_bytes() + ffn_.workspace_bytes() +
                 moe_.workspace_bytes() + decode_workspace_.bytes();
  for (const GrowableDeviceBuffer<float>& b : activations_) total += b.bytes();
  return total;
}

void CudaForwardOps::begin_step(const BatchInput& batch, KvCacheStorage* /*host cache*/) {
  if (cache_ == nullptr) throw std::logic_error("cuda forward: no device KV cache bound");
  inputs_.upload(batch, cache_->layer(0).block_size, stream_, decode_context_bound_);
  num_tokens_ = batch.num_tokens();
  num_logits_rows_ = int64_t(batch.logits_rows.size());
}

// The tables are widened to fp32 on the device once (the CPU's lookup widens each row).
void CudaForwardOps::embed(const Tensor& table, float* out) { embed_part(table, 0, out); }

void CudaForwardOps::embed_part(const Tensor& table, int64_t row_start, float* out) {
  embedding_lookup(vector(table), table.dim(0), table.dim(1), row_start, inputs_.token_ids(),
                   num_tokens_, out, stream_);
}

void CudaForwardOps::rms_norm(const float* x, const float* weight, int64_t rows, int64_t dim,
                              float eps, float* out) {
  cuda::rms_norm(x, weight, rows, dim, eps, out, stream_);
}

void CudaForwardOps::add(float* x, const float* delta, int64_t count) {
  add_inplace(x, delta, count, stream_);
}

void CudaForwardOps::add_rms_norm(float* x, float* delta, const float* weight, int64_t rows,
                                  int64_t dim, float eps) {
  cuda::add_rms_norm(delta, x, weight, rows, dim, eps, stream_);
}

void CudaForwardOps::linear(const float* x, int64_t rows, const OpWeight& w, float* y) {
  gemm_.project(x, rows, matrix_of(w), y);
}

void CudaForwardOps::split_qkv(const float* qkv, int64_t rows, int64_t q_width, int64_t kv_width,
                               const float* bq, const float* bk, const float* bv, float* q,
                               float* k, float* v) {
  cuda::split_qkv(qkv, rows, q_width, kv_width, bq, bk, bv, q, k, v, stream_);
}

void CudaForwardOps::rope(float* x, int64_t rows, int num_heads, int head_dim,
                          const RopeFrequencies& /*the model's, uploaded at construction*/) {
  rope_neox(x, inputs_.positions(), rows, num_heads, head_dim, rope_inv_freq_.data(), rope_scale_,
            stream_);
}

void CudaForwardOps::write_kv(int layer, const float* k, const float* v, int64_t rows) {
  cache_->write(layer, k, v, inputs_.slot_mapping(), rows, stream_);
}

// Every row of `out` is written by exactly one of the two kernels: Flash-Decoding for the
// decodes, the FlashAttention-2-style kernel for prefills and chunks over a cached prefix.
void CudaForwardOps::attention(int layer, const float* q, int num_heads, float scale,
                               int sliding_window, float* out) {
  const DeviceKvLayer kv = cache_->layer(layer);
  const DeviceAttentionBatch& decodes = inputs_.decodes();
  if (decodes.num_seqs > 0) {
    void* workspace = decode_workspace_.ensure(attention_decode_workspace_bytes(
        decodes.num_seqs, num_heads, config_.head_dim, decodes.max_context_len));
    attention_decode(q, decodes, kv, num_heads, scale, out, workspace, stream_, sliding_window);
  }
  if (inputs_.prefills().num_seqs > 0) {
    attention_prefill(q, inputs_.prefills(), kv, num_heads, scale, out, stream_, sliding_window);
  }
}

void CudaForwardOps::ffn(const OpFfn& f, const float* x, int64_t rows, float* out) {
  ffn_.run(gemm_, matrix_of(*f.gate_up), matrix_of(*f.down), x, rows, out);
}

void CudaForwardOps::moe_ffn(const OpMoe& moe, const float* x, int64_t rows, float* out) {
  if (shard_ && shard_->expert_parallel) {
    moe_.run_expert_parallel(gemm_, ffn_, moe, config_, *shard_, *comm_, x, rows, out);
  } else {
    moe_.run(gemm_, ffn_, moe, config_, x, rows, out);
  }
}

// The gather of an embedding lookup over a table of the step's rows is exactly this.
void CudaForwardOps::gather_logits_rows(const float* x, int64_t width, float* out) {
  embedding_lookup(x, num_tokens_, width, 0, inputs_.logits_rows(), num_logits_rows_, out, stream_);
}

void CudaForwardOps::all_reduce(float* x, size_t count) {
  if (!comm_) throw std::logic_error("cuda forward: a collective without a tensor-parallel group");
  comm_->all_reduce(x, count);
}

void CudaForwardOps::all_gather(const float* local, size_t count, float* out) {
  if (!comm_) throw std::logic_error("cuda forward: a collective without a tensor-parallel group");
  comm_->all_gather(local, count, out);
}

}  // namespace infergate::cuda
