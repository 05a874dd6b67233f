#include "kernels/cuda/launch.cuh"
#include "kernels/cuda/silu_mul.h"

namespace infergate::cuda {
namespace {

__global__ void silu_mul_rows_kernel(const float* gate_up, int64_t rows, int64_t width,
                                     float* out) {
  const int64_t n = rows * width;
  for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < n;
       idx += int64_t(gridDim.x) * blockDim.x) {
    const int64_t r = idx / width, i = idx % width;
    const float gate = gate_up[r * 2 * width + i], up = gate_up[r * 2 * width + width + i];
    out[idx] = gate / (1.0f + expf(-gate)) * up;
  }
}

}  // namespace

void silu_mul_rows(const float* gate_up, int64_t rows, int64_t width, float* out,
                   cudaStream_t stream) {
  if (rows <= 0 || width <= 0) return;
  silu_mul_rows_kernel<<<detail::grid_for(rows * width), detail::kThreads, 0, stream>>>(
      gate_up, rows, width, out);
  INFERGATE_CUDA_CHECK_LAUNCH();
}

}  // namespace infergate::cuda
