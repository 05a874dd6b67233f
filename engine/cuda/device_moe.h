// A mixture-of-experts FFN on the GPU (forward_ops.h's moe_ffn), as the CPU's
// (engine/forward/cpu/cpu_moe.h) without expert parallelism: the router's top-k per token, the
// routed rows grouped by expert (a stable permutation), each expert once over its contiguous rows,
// the weighted sum back in token order, plus the shared expert.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/cuda/device_ffn.h"
#include "engine/cuda/device_gemm.h"
#include "engine/cuda/growable_device_buffer.h"
#include "engine/forward/forward_ops.h"
#include "engine/model/model_config.h"

namespace infergate::cuda {

class DeviceMoe {
 public:
  // out [n, hidden] = the FFN of `in` [n, hidden] (out must not alias in). Waits for the
  // expert row counts (E + 1 integers) to reach the host: the per-expert GEMMs' sizes.
  void run(DeviceGemm& gemm, DeviceFfnRunner& ffn, const OpMoe& moe, const ModelConfig& config,
           const float* in, int64_t n, float* out);
  size_t workspace_bytes() const;

 private:
  void route(DeviceGemm& gemm, const OpMoe& moe, const MoeConfig& m, const float* in, int64_t n);
  GrowableDeviceBuffer<float> router_logits_, weights_, rows_in_, rows_out_, shared_out_;
  GrowableDeviceBuffer<int32_t> ids_, source_row_, permuted_index_;
  GrowableDeviceBuffer<int64_t> offsets_;
  GrowableDeviceBuffer<unsigned char> permute_workspace_;
  std::vector<int64_t> host_offsets_;
};

}  // namespace infergate::cuda
