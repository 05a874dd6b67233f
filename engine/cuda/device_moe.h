// A mixture-of-experts FFN on the GPU, as the CPU's Transformer::moe_ffn: the router's top-k per
// token, the routed rows grouped by expert (a stable permutation), each expert once over its
// contiguous rows, the weighted sum back in token order, plus the shared expert.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/cuda/device_ffn.h"
#include "engine/cuda/device_gemm.h"
#include "engine/cuda/device_model.h"
#include "engine/cuda/growable_device_buffer.h"
#include "engine/model/model_config.h"

namespace infergate::cuda {

class DeviceMoe {
 public:
  // out [n, hidden] = the FFN of `in` [n, hidden] (out must not alias in). Waits for the
  // expert row counts (E + 1 integers) to reach the host: the per-expert GEMMs' sizes.
  void run(DeviceGemm& gemm, DeviceFfnRunner& ffn, const DeviceLayer& layer,
           const ModelConfig& config, const float* in, int64_t n, float* out);
  size_t workspace_bytes() const;

 private:
  void route(DeviceGemm& gemm, const DeviceLayer& layer, const MoeConfig& m, const float* in,
             int64_t n);
  GrowableDeviceBuffer<float> router_logits_, weights_, rows_in_, rows_out_, shared_out_;
  GrowableDeviceBuffer<int32_t> ids_, source_row_, permuted_index_;
  GrowableDeviceBuffer<int64_t> offsets_;
  GrowableDeviceBuffer<unsigned char> permute_workspace_;
  std::vector<int64_t> host_offsets_;
};

}  // namespace infergate::cuda
