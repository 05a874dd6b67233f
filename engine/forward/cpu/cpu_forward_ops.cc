#include "engine/forward/cpu/cpu_forward_ops.h"

#include <algorithm>

#include "kernels/cpu/linear.h"
#include "kernels/cpu/ops.h"
#include "kernels/cpu/paged_attention.h"
#include "kernels/cpu/split_qkv.h"

namespace infergate {

namespace {

const PackedWeight& packed(const OpWeight& w) { return static_cast<const CpuWeight&>(w).packed(); }

void ensure(std::vector<float>& v, size_t n) {
  if (v.size() < n) v.resize(n);
}

}  // namespace

CpuForwardOps::CpuForwardOps(const ModelConfig& config, ThreadPool& pool, const ModelShard* shard,
                             ShardCollectives* comm)
    : pool_(pool),
      comm_(comm),
      moe_(
          config, pool,
          [this](const OpFfn& f, const float* in, int64_t rows, float* out) {
            ffn(f, in, rows, out);
          },
          shard, comm) {}

std::unique_ptr<OpWeight> CpuForwardOps::prepare_linear(const std::vector<const Tensor*>& fused) {
  return std::make_unique<CpuWeight>(fused.size() == 1 ? prepare_weight(*fused.front())
                                                       : prepare_weight(fused));
}

std::unique_ptr<OpWeight> CpuForwardOps::prepare_router(const Tensor& router) {
  return std::make_unique<CpuRowMajorWeight>(router);
}

// Host tensors are read in place: the ops live no longer than the weights they were built from.
const float* CpuForwardOps::vector(const Tensor& t) {
  return t.defined() ? t.data<float>() : nullptr;
}

float* CpuForwardOps::activation(Activation a, size_t floats) {
  std::vector<float>& v = activations_[size_t(a)];
  ensure(v, floats);
  return v.data();
}

size_t CpuForwardOps::workspace_bytes() const {
  size_t floats = gate_up_.capacity() + act_.capacity();
  for (const std::vector<float>& v : activations_) floats += v.capacity();
  return floats * sizeof(float) + moe_.workspace_bytes();
}

void CpuForwardOps::begin_step(const BatchInput& batch, KvCacheStorage* cache) {
  batch_ = &batch;
  if (cache != nullptr) cache_ = cache;
}

void CpuForwardOps::embed(const Tensor& table, float* out) {
  embedding_lookup(table, batch_->token_ids.data(), batch_->num_tokens(), out);
}

void CpuForwardOps::embed_part(const Tensor& table, int64_t row_start, float* out) {
  embedding_lookup_shard(table, row_start, batch_->token_ids.data(), batch_->num_tokens(), out);
}

void CpuForwardOps::rms_norm(const float* x, const float* weight, int64_t rows, int64_t dim,
                             float eps, float* out) {
  infergate::rms_norm(x, weight, rows, dim, eps, out);
}

void CpuForwardOps::add(float* x, const float* delta, int64_t count) {
  add_inplace(x, delta, count);
}

void CpuForwardOps::add_rms_norm(float* x, float* delta, const float* weight, int64_t rows,
                                 int64_t dim, float eps) {
  add_inplace(x, delta, rows * dim);
  infergate::rms_norm(x, weight, rows, dim, eps, delta);
}

void CpuForwardOps::linear(const float* x, int64_t rows, const OpWeight& w, float* y) {
  infergate::linear(x, rows, packed(w), y, pool_);
}

void CpuForwardOps::split_qkv(const float* qkv, int64_t rows, int64_t q_width, int64_t kv_width,
                              const float* bq, const float* bk, const float* bv, float* q, float* k,
                              float* v) {
  infergate::split_qkv(qkv, rows, q_width, kv_width, bq, bk, bv, q, k, v);
}

void CpuForwardOps::rope(float* x, int64_t rows, int num_heads, int head_dim,
                         const RopeFrequencies& rope) {
  rope_neox(x, batch_->positions.data(), rows, num_heads, head_dim, rope);
}

void CpuForwardOps::write_kv(int layer, const float* k, const float* v, int64_t rows) {
  infergate::write_kv(k, v, batch_->slot_mapping.data(), rows, cache_->layer(layer));
}

void CpuForwardOps::attention(int layer, const float* q, int num_heads, float scale,
                              int sliding_window, float* out) {
  paged_attention(q, batch_->sequences.data(), int64_t(batch_->sequences.size()),
                  cache_->layer(layer), num_heads, scale, out, pool_, sliding_window);
}

void CpuForwardOps::ffn(const OpFfn& f, const float* x, int64_t rows, float* out) {
  const int64_t inter = f.down->cols();
  ensure(gate_up_, size_t(2 * rows * inter));
  ensure(act_, size_t(rows * inter));
  infergate::linear(x, rows, packed(*f.gate_up), gate_up_.data(), pool_);
  // Into a separate buffer, split over threads: in place, the possible aliasing kept the
  // compiler from vectorizing it (it was ~17% of a 32-sequence decode step).
  const float* gu = gate_up_.data();
  float* act = act_.data();
  pool_.parallel_for(rows, [&](int64_t b, int64_t e) {
    silu_mul_rows(gu + b * 2 * inter, e - b, inter, act + b * inter);
  });
  infergate::linear(act, rows, packed(*f.down), out, pool_);
}

void CpuForwardOps::moe_ffn(const OpMoe& moe, const float* x, int64_t rows, float* out) {
  moe_.run(moe, x, rows, out);
}

void CpuForwardOps::gather_logits_rows(const float* x, int64_t width, float* out) {
  for (size_t i = 0; i < batch_->logits_rows.size(); ++i) {
    std::copy_n(x + batch_->logits_rows[i] * width, width, out + int64_t(i) * width);
  }
}

void CpuForwardOps::all_reduce(float* x, size_t count) { comm_->all_reduce(x, count); }

void CpuForwardOps::all_gather(const float* local, size_t count, float* out) {
  comm_->all_gather(local, count, out);
}

}  // namespace infergate
