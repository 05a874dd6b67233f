// A model's weights on the GPU: projections fused as the CPU forward packs them (q|k|v,
// gate|up) in the dtype the GEMM reads; norms, biases, the embedding table and the MoE router
// in fp32.
#pragma once

#include <vector>

#include "engine/cuda/device_ffn.h"
#include "engine/cuda/device_matrix.h"
#include "engine/model/model_weights.h"

namespace infergate::cuda {

struct DeviceLayer {
  DeviceBuffer<float> attn_norm, ffn_norm, bq, bk, bv, q_norm, k_norm;
  DeviceMatrix qkv, o;
  DeviceFfn ffn;        // dense models
  DeviceMatrix router;  // MoE: [num_experts, hidden], fp32
  std::vector<DeviceFfn> experts;
  DeviceFfn shared_expert;  // optional
};

struct DeviceModel {
  DeviceBuffer<float> embed;  // [vocab, hidden], fp32 as the CPU's lookup produces it
  DeviceBuffer<float> final_norm;
  std::vector<DeviceLayer> layers;
  DeviceMatrix lm_head;               // the embedding table again when tied
  DeviceBuffer<float> rope_inv_freq;  // [head_dim / 2] (engine/model/rope_scaling.h)
  float rope_scale = 1.0f;

  size_t nbytes() const;
};

// The weights on the device; what the GPU kernels cannot run (more experts than the router
// kernel holds) is refused before, by the executor (engine/core/cuda_limits.h).
DeviceModel upload_model(const ModelWeights& weights);

}  // namespace infergate::cuda
