// The transformer (engine/forward/transformer.h) on one GPU's ops (cuda_forward_ops.h): a step's
// inputs go up once, its kernels run eagerly or replay from a CUDA graph (decode_graphs.h), and
// either the logits come back to the host or the GPU samples and only the tokens do.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/core/memory_ledger.h"
#include "engine/cuda/cuda_forward_ops.h"
#include "engine/cuda/decode_graphs.h"
#include "engine/cuda/device_kv_cache.h"
#include "engine/cuda/growable_device_buffer.h"
#include "engine/forward/batch_input.h"
#include "engine/forward/transformer.h"
#include "engine/model/model_weights.h"
#include "kernels/cuda/sampling.h"

namespace infergate::cuda {

// CUDA graphs of decode steps (decode_graphs.h): off unless max_batch > 0.
struct CudaGraphSettings {
  int max_batch = 0;            // the engine's max_num_seqs
  int64_t max_context_len = 0;  // the engine's max_model_len: every replay's context bound
};

class CudaForward {
 public:
  // Uploads the weights. The combinations it cannot run are refused before, by the executor
  // (engine/core/cuda_limits.h). With `shard` and `comm` (both or neither; they must outlive
  // this) it is one rank's part of a model split across GPUs (engine/parallel/cuda/), with the
  // collectives ordered after `stream`'s work; no graphs then.
  CudaForward(const ModelWeights& weights, GemmChoice gemm, cudaStream_t stream,
              CudaGraphSettings graphs = {}, const ModelShard* shard = nullptr,
              ShardCollectives* comm = nullptr);

  // Logits [logits_rows.size(), full vocabulary] on the host; the K/V of the batch land in
  // `cache`.
  std::vector<float> forward(const BatchInput& batch, DeviceKvCache& cache);
  // A pipeline stage's part of the step, its hidden states [num_tokens, hidden] passed through
  // host memory: the first stage (`hidden_in` null) embeds, the others start from `hidden_in`;
  // the last (`hidden_out` null) returns the logits as forward() does, the others fill
  // `hidden_out` and return nothing.
  std::vector<float> run_stage(const BatchInput& batch, DeviceKvCache& cache,
                               const float* hidden_in, float* hidden_out);
  // The same forward, sampled on the device (kernels/cuda/sampling.h): one token per logits
  // row, with params[i] for row i; only the tokens are copied back.
  std::vector<int32_t> forward_and_sample(const BatchInput& batch, DeviceKvCache& cache,
                                          const std::vector<DeviceSamplingParams>& params);
  size_t weight_bytes() const { return ops_.weight_bytes(); }
  size_t workspace_bytes() const;
  // Expert parallelism: (token, expert) rows this rank's experts have computed so far.
  int64_t expert_tokens() const { return ops_.expert_tokens(); }
  // The memory ledger of this model with `cache`, the KV cache its steps write.
  MemoryLedger memory(const DeviceKvCache& cache) const {
    return {.weights_bytes = weight_bytes(),
            .kv_cache_bytes = cache.nbytes(),
            .workspace_bytes = workspace_bytes()};
  }
  // Decode steps replayed from a CUDA graph so far (0 without graphs).
  int64_t graph_replays() const { return graphs_ ? graphs_->replays() : 0; }

 private:
  // Everything up to the logits, left in logits_ (a padded graph step's real rows first).
  void compute_logits(const BatchInput& batch, DeviceKvCache& cache);
  void run_step();
  // The logits of the bound step, whole rows, on the host: a tensor-parallel rank gathers every
  // rank's vocabulary rows first.
  std::vector<float> download_logits(const BatchInput& batch);

  const ModelConfig config_;
  cudaStream_t stream_;
  const ModelShard* shard_;
  ShardCollectives* comm_;
  CudaForwardOps ops_;
  Transformer model_;
  GrowableDeviceBuffer<float> logits_;
  GrowableDeviceBuffer<float> gathered_logits_;  // tensor parallel: every rank's rows
  GrowableDeviceBuffer<unsigned char> sample_workspace_;
  GrowableDeviceBuffer<int32_t> tokens_;
  GrowableDeviceBuffer<DeviceSamplingParams> sampling_;
  std::unique_ptr<DecodeGraphs> graphs_;
  int64_t graph_context_bound_ = 0;
};

}  // namespace infergate::cuda
