// The SiLU-gated FFN on the GPU (forward_ops.h's ffn, and each expert of moe_ffn): the fused
// gate|up projection, SiLU-and-multiply, the down projection.
#pragma once

#include <cstdint>

#include "engine/cuda/device_gemm.h"
#include "engine/cuda/device_matrix.h"
#include "engine/cuda/growable_device_buffer.h"

namespace infergate::cuda {

// Keeps the intermediate activations between calls.
class DeviceFfnRunner {
 public:
  // out [rows, hidden] = down(silu(gate(in)) * up(in)), gate_up: [gate | up] rows
  // [2 * intermediate, hidden], down: [hidden, intermediate]; `out` must not alias `in`.
  void run(DeviceGemm& gemm, const DeviceMatrix& gate_up, const DeviceMatrix& down, const float* in,
           int64_t rows, float* out);
  size_t workspace_bytes() const { return gate_up_.bytes() + act_.bytes(); }

 private:
  GrowableDeviceBuffer<float> gate_up_, act_;
};

}  // namespace infergate::cuda
