// The cuda backend's projections y = x * W^T: cuBLAS by default, our tensor-core GEMM when the
// engine config says cuda_gemm = "infergate". Activations are fp32; for 16-bit weights they are
// rounded to the weights' dtype first (fp32 accumulation), as cuBLAS and our kernel read both
// operands in one dtype.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "engine/cuda/device_matrix.h"
#include "engine/cuda/growable_device_buffer.h"
#include "kernels/cuda/cublas_gemm.h"

namespace infergate::cuda {

enum class GemmChoice {
  kCublas,     // cublasGemmEx: the default
  kInfergate,  // gemm_tensor_core (f16 / bf16 weights only)
};

class DeviceGemm {
 public:
  DeviceGemm(GemmChoice choice, cudaStream_t stream);

  // y [m, w.rows] = x [m, w.cols] * w^T (all device memory; fp32 x and y).
  void project(const float* x, int64_t m, const DeviceMatrix& w, float* y);
  cudaStream_t stream() const { return stream_; }
  size_t workspace_bytes() const { return low_precision_.bytes(); }

 private:
  GemmChoice choice_;
  cudaStream_t stream_;
  CublasGemm cublas_;
  GrowableDeviceBuffer<unsigned char> low_precision_;  // x rounded to the weights' dtype
};

}  // namespace infergate::cuda
