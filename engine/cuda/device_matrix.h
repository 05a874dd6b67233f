// A projection matrix on the GPU, in the dtype its GEMM reads: [rows (out), cols (in)]
// row-major, several host tensors fused by rows (q|k|v, gate|up) as the CPU forward packs them.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/cuda/device_buffer.h"
#include "kernels/cuda/gemm_dtype.h"
#include "kernels/tensor.h"

namespace infergate::cuda {

struct DeviceMatrix {
  DeviceBytes data;
  GemmDType dtype = GemmDType::kF32;
  int64_t rows = 0;
  int64_t cols = 0;

  bool defined() const { return rows > 0; }
};

// The parts stacked by rows (each [rows_i, cols], same cols). f32, f16 and bf16 parts of one
// dtype are copied as they are; anything else (block formats, mixed dtypes) is converted to bf16 on
// the host first, since the GPU GEMMs read only these three.
DeviceMatrix upload_matrix(const std::vector<const Tensor*>& parts);

// A vector or table widened to fp32 (norm weights, biases, the embedding table); empty when
// `t` is undefined.
DeviceBuffer<float> upload_f32(const Tensor& t);

}  // namespace infergate::cuda
