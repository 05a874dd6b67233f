#include "engine/cuda/device_gemm.h"

#include "kernels/cuda/convert.h"
#include "kernels/cuda/gemm_tensor_core.h"

namespace infergate::cuda {

DeviceGemm::DeviceGemm(GemmChoice choice, cudaStream_t stream) : choice_(choice), stream_(stream) {}

void DeviceGemm::project(const float* x, int64_t m, const DeviceMatrix& w, float* y) {
  if (m == 0) return;
  if (w.dtype == GemmDType::kF32) {  // fp32 weights: cuBLAS in full fp32 (cuda_limits.h)
    cublas_.gemm(x, w.data.data(), GemmDType::kF32, y, m, w.rows, w.cols, stream_);
    return;
  }
  const int64_t elements = m * w.cols;
  void* low = low_precision_.ensure(size_t(elements) * gemm_dtype_size(w.dtype));
  convert_f32_to(x, low, w.dtype, elements, stream_);
  if (choice_ == GemmChoice::kInfergate) {
    gemm_tensor_core(low, w.data.data(), w.dtype, y, m, w.rows, w.cols, stream_);
  } else {
    cublas_.gemm(low, w.data.data(), w.dtype, y, m, w.rows, w.cols, stream_);
  }
}

}  // namespace infergate::cuda
