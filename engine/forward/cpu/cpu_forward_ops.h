// The forward's ops on the CPU (forward_ops.h over kernels/cpu): projections packed once into
// the GEMM kernels' panel layout, activations in grow-only host buffers, the KV cache the
// caller passes each step, and the collectives of a ModelShard's group (engine/parallel/).
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "engine/forward/cpu/cpu_moe.h"
#include "engine/forward/cpu/cpu_weights.h"
#include "engine/forward/forward_ops.h"
#include "engine/model/model_config.h"
#include "engine/model/model_shard.h"
#include "kernels/cpu/thread_pool.h"

namespace infergate {

class CpuForwardOps final : public ForwardOps {
 public:
  // `shard` and `comm` (both or neither; they must outlive this) make it one rank's part.
  CpuForwardOps(const ModelConfig& config, ThreadPool& pool, const ModelShard* shard = nullptr,
                ShardCollectives* comm = nullptr);

  std::unique_ptr<OpWeight> prepare_linear(const std::vector<const Tensor*>& fused) override;
  std::unique_ptr<OpWeight> prepare_router(const Tensor& router) override;
  const float* vector(const Tensor& t) override;
  float* activation(Activation a, size_t floats) override;
  size_t workspace_bytes() const override;
  void begin_step(const BatchInput& batch, KvCacheStorage* cache) override;
  void embed(const Tensor& table, float* out) override;
  void embed_part(const Tensor& table, int64_t row_start, float* out) override;
  void rms_norm(const float* x, const float* weight, int64_t rows, int64_t dim, float eps,
                float* out) override;
  void add(float* x, const float* delta, int64_t count) override;
  void add_rms_norm(float* x, float* delta, const float* weight, int64_t rows, int64_t dim,
                    float eps) override;
  void linear(const float* x, int64_t rows, const OpWeight& w, float* y) override;
  void split_qkv(const float* qkv, int64_t rows, int64_t q_width, int64_t kv_width, const float* bq,
                 const float* bk, const float* bv, float* q, float* k, float* v) override;
  void rope(float* x, int64_t rows, int num_heads, int head_dim,
            const RopeFrequencies& rope) override;
  void write_kv(int layer, const float* k, const float* v, int64_t rows) override;
  void attention(int layer, const float* q, int num_heads, float scale, int sliding_window,
                 float* out) override;
  void ffn(const OpFfn& ffn, const float* x, int64_t rows, float* out) override;
  void moe_ffn(const OpMoe& moe, const float* x, int64_t rows, float* out) override;
  void gather_logits_rows(const float* x, int64_t width, float* out) override;
  void all_reduce(float* x, size_t count) override;
  void all_gather(const float* local, size_t count, float* out) override;

  // Expert parallelism: (token, expert) rows this rank's experts have computed so far.
  int64_t expert_tokens() const { return moe_.expert_tokens(); }

 private:
  ThreadPool& pool_;
  ShardCollectives* comm_;
  const BatchInput* batch_ = nullptr;
  KvCacheStorage* cache_ = nullptr;
  std::array<std::vector<float>, size_t(Activation::kCount)> activations_;
  std::vector<float> gate_up_, act_;  // the FFN's
  CpuMoe moe_;
};

}  // namespace infergate
