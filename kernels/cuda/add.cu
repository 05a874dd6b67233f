#include "kernels/cuda/add.h"
#include "kernels/cuda/launch.cuh"

namespace infergate::cuda {
namespace {

__global__ void add_inplace_kernel(float* x, const float* y, int64_t n) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    x[i] += y[i];
  }
}

}  // namespace

void add_inplace(float* x, const float* y, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  add_inplace_kernel<<<detail::grid_for(n), detail::kThreads, 0, stream>>>(x, y, n);
  INFERGATE_CUDA_CHECK_LAUNCH();
}

}  // namespace infergate::cuda
