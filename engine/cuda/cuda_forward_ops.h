// The forward's ops on one GPU (forward_ops.h over kernels/cuda and cuBLAS): projections in the
// dtype their GEMM reads (device_matrix.h), norms, biases and tables widened to fp32 once,
// grow-only activation buffers, the step's inputs copied up once (device_step_inputs.h), and
// the device KV cache the caller binds. Activations stay fp32 (device_gemm.h says how 16-bit
// weights are multiplied).
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <memory>
#include <unordered_map>
#include <vector>

#include "engine/cuda/cuda_weight.h"
#include "engine/cuda/device_ffn.h"
#include "engine/cuda/device_gemm.h"
#include "engine/cuda/device_kv_cache.h"
#include "engine/cuda/device_matrix.h"
#include "engine/cuda/device_moe.h"
#include "engine/cuda/device_step_inputs.h"
#include "engine/cuda/growable_device_buffer.h"
#include "engine/forward/forward_ops.h"
#include "engine/model/model_config.h"
#include "engine/model/model_shard.h"

namespace infergate::cuda {

class CudaForwardOps final : public ForwardOps {
 public:
  // The model's RoPE frequencies are uploaded here, once (rope() ignores its host copy). With
  // `shard` and `comm` (both or neither; they must outlive this) the ops are one rank's part of
  // a tensor/expert-parallel group: `comm` takes device buffers and runs its collectives after
  // this stream's work (NCCL on this very stream).
  CudaForwardOps(const ModelConfig& config, GemmChoice gemm, cudaStream_t stream,
                 const ModelShard* shard = nullptr, ShardCollectives* comm = nullptr);

  // The device cache the step's layers write and read; must outlive its steps.
  void bind_cache(DeviceKvCache* cache) { cache_ = cache; }
  // A CUDA graph's steps give every replay the same decode grid (device_step_inputs.h); 0: off.
  void set_decode_context_bound(int64_t bound) { decode_context_bound_ = bound; }
  // Bytes of every weight and table uploaded (the memory ledger's "weights").
  size_t weight_bytes() const { return weight_bytes_; }
  const int32_t* step_logits_rows() const { return inputs_.logits_rows(); }
  // Expert parallelism: (token, expert) rows this rank's experts have computed so far.
  int64_t expert_tokens() const { return moe_.expert_tokens(); }

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

 private:
  std::unique_ptr<OpWeight> upload(const std::vector<const Tensor*>& parts);

  const ModelConfig config_;
  cudaStream_t stream_;
  DeviceGemm gemm_;
  DeviceFfnRunner ffn_;
  DeviceMoe moe_;
  DeviceStepInputs inputs_;
  const ModelShard* shard_;
  ShardCollectives* comm_;
  DeviceKvCache* cache_ = nullptr;
  int64_t num_tokens_ = 0, num_logits_rows_ = 0, decode_context_bound_ = 0;
  std::unordered_map<const Tensor*, DeviceBuffer<float>> vectors_;  // uploaded once each
  DeviceBuffer<float> rope_inv_freq_;
  float rope_scale_ = 1.0f;
  size_t weight_bytes_ = 0;
  std::array<GrowableDeviceBuffer<float>, size_t(Activation::kCount)> activations_;
  GrowableDeviceBuffer<unsigned char> decode_workspace_;
};

}  // namespace infergate::cuda
