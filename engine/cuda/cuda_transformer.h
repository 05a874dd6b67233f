// The forward pass on one GPU, step for step the CPU Transformer's (engine/forward/transformer.h)
// on the CUDA kernels: embed, then per layer RMSNorm, fused q|k|v projection, RoPE, KV write,
// paged attention (FlashAttention-2 style for prefills, Flash-Decoding for decodes), o
// projection, and the SiLU FFN (dense, or mixture of experts), with the residual adds fused
// into the next RMSNorm; last the final norm and LM head for the rows to sample. Activations
// stay fp32 (device_gemm.h says how 16-bit weights are multiplied).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/cuda/decode_graphs.h"
#include "engine/cuda/device_ffn.h"
#include "engine/cuda/device_gemm.h"
#include "engine/cuda/device_kv_cache.h"
#include "engine/cuda/device_model.h"
#include "engine/cuda/device_moe.h"
#include "engine/cuda/device_step_inputs.h"
#include "engine/cuda/growable_device_buffer.h"
#include "engine/forward/batch_input.h"
#include "engine/model/model_weights.h"
#include "kernels/cuda/sampling.h"

namespace infergate::cuda {

// CUDA graphs of decode steps (decode_graphs.h): off unless max_batch > 0.
struct CudaGraphSettings {
  int max_batch = 0;            // the engine's max_num_seqs
  int64_t max_context_len = 0;  // the engine's max_model_len: every replay's context bound
};

class CudaTransformer {
 public:
  // Uploads the weights. The combinations it cannot run are refused before, by the executor
  // (engine/core/cuda_limits.h).
  CudaTransformer(const ModelWeights& weights, GemmChoice gemm, cudaStream_t stream,
                  CudaGraphSettings graphs = {});

  // Logits [logits_rows.size(), vocab] on the host; the K/V of the batch land in `cache`.
  std::vector<float> forward(const BatchInput& batch, DeviceKvCache& cache);
  // The same forward, sampled on the device (kernels/cuda/sampling.h): one token per logits
  // row, with params[i] for row i; only the tokens are copied back.
  std::vector<int32_t> forward_and_sample(const BatchInput& batch, DeviceKvCache& cache,
                                          const std::vector<DeviceSamplingParams>& params);
  size_t weight_bytes() const { return model_.nbytes(); }
  size_t workspace_bytes() const;
  // Decode steps replayed from a CUDA graph so far (0 without graphs).
  int64_t graph_replays() const { return graphs_ ? graphs_->replays() : 0; }

 private:
  struct Scratch {
    GrowableDeviceBuffer<float> x, h, tmp, qkv, q, k, v, attn, rows, logits;
    GrowableDeviceBuffer<unsigned char> decode_workspace, sample_workspace;
    GrowableDeviceBuffer<int32_t> tokens;
    GrowableDeviceBuffer<DeviceSamplingParams> sampling;
  };
  void grow(int64_t num_tokens, int64_t logits_rows);
  size_t graph_buffer_bytes() const;
  // Everything up to the logits, left in s_.logits (a padded graph step's real rows first).
  void compute_logits(const BatchInput& batch, DeviceKvCache& cache);
  // The step's kernels after its inputs are on the device: n tokens, `rows` rows to sample.
  void run_forward(int64_t n, int64_t rows, DeviceKvCache& cache);
  void attention_block(int layer, int64_t n, DeviceKvCache& cache);
  void attention(int layer, DeviceKvCache& cache);
  void ffn_block(int layer, int64_t n);
  const float* next_norm(int layer) const;

  const ModelConfig config_;
  cudaStream_t stream_;
  DeviceModel model_;
  DeviceGemm gemm_;
  DeviceFfnRunner ffn_;
  DeviceMoe moe_;
  DeviceStepInputs inputs_;
  Scratch s_;
  std::unique_ptr<DecodeGraphs> graphs_;
  int64_t graph_context_bound_ = 0;
};

}  // namespace infergate::cuda
