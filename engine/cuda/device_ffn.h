// The SiLU-gated FFN on the GPU (a dense layer's, an expert's or the shared expert's): the fused
// gate|up projection, SiLU-and-multiply, the down projection.
#pragma once

#include <cstdint>

#include "engine/cuda/device_gemm.h"
#include "engine/cuda/device_matrix.h"
#include "engine/cuda/growable_device_buffer.h"
#include "engine/model/model_weights.h"

namespace infergate::cuda {

struct DeviceFfn {
  DeviceMatrix gate_up;  // [gate | up] rows: [2 * intermediate, hidden]
  DeviceMatrix down;     // [hidden, intermediate]

  bool defined() const { return down.defined(); }
  size_t nbytes() const { return gate_up.data.bytes() + down.data.bytes(); }
};

DeviceFfn upload_ffn(const FfnWeights& f);

// Keeps the intermediate activations between calls.
class DeviceFfnRunner {
 public:
  // out [rows, hidden] = down(silu(gate(in)) * up(in)); `out` must not alias `in`.
  void run(DeviceGemm& gemm, const DeviceFfn& ffn, const float* in, int64_t rows, float* out);
  size_t workspace_bytes() const { return gate_up_.bytes() + act_.bytes(); }

 private:
  GrowableDeviceBuffer<float> gate_up_, act_;
};

}  // namespace infergate::cuda
