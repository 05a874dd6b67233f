// cuBLAS and cuBLASLt GEMMs with the contract of kernels/cpu/linear.h: the production default
// and the yardstick for gemm_tensor_core (docs/cuda.md).
#pragma once

#include <cublasLt.h>
#include <cublas_api.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>

#include "kernels/cuda/device_buffer.h"
#include "kernels/cuda/gemm_dtype.h"

namespace infergate::cuda {

// Owns a cuBLAS handle, a cuBLASLt handle and cuBLASLt's workspace on the device current at
// construction. Not thread-safe, and every gemm_lt shares the one workspace: use one object per
// stream that runs GEMMs concurrently.
class CublasGemm {
 public:
  static constexpr size_t kLtWorkspaceBytes = size_t(32) << 20;  // NVIDIA's advice for Hopper

  CublasGemm();
  ~CublasGemm();
  CublasGemm(const CublasGemm&) = delete;
  CublasGemm& operator=(const CublasGemm&) = delete;

  // y[m, n] (fp32, row-major) = sum_k x[m, k] * w[n, k]; x and w row-major, both `dtype`,
  // fp32 accumulation (CUBLAS_COMPUTE_32F). kF32 is full fp32, never TF32 (the handle keeps
  // the default math mode). Through cublasGemmEx, as y^T = w * x^T in cuBLAS's column-major
  // terms, so row-major data needs no copy.
  // Throws std::invalid_argument for sizes < 1 or beyond int; std::runtime_error (naming the
  // call) when cuBLAS fails.
  void gemm(const void* x, const void* w, GemmDType dtype, float* y, int64_t m, int64_t n,
            int64_t k, cudaStream_t stream);

  // The same through cublasLtMatmul, with the algorithm cuBLASLt's heuristic picks for this
  // shape, dtype and the pointers' alignment; the descriptors and the choice are cached, so
  // only the first call per combination queries the heuristic.
  void gemm_lt(const void* x, const void* w, GemmDType dtype, float* y, int64_t m, int64_t n,
               int64_t k, cudaStream_t stream);

 private:
  struct LtCache;  // the cached plans (cublas_gemm.cc)
  void release() noexcept;

  cublasHandle_t handle_ = nullptr;
  cublasLtHandle_t lt_handle_ = nullptr;
  DeviceBytes lt_workspace_;
  DeviceBytes workspace_;  // cuBLAS's own: never allocated inside a CUDA graph capture
  std::unique_ptr<LtCache> lt_cache_;
};

}  // namespace infergate::cuda
