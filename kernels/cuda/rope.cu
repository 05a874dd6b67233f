#include "kernels/cuda/launch.cuh"
#include "kernels/cuda/rope.h"

namespace infergate::cuda {
namespace {

// One thread per rotated pair (row, head, i < half). Angles in double exactly as the CPU's
// RopeTable (the float inv_freq times the position in double): fp32 angles at positions in the
// thousands lose whole digits.
__global__ void rope_neox_kernel(float* x, const int32_t* positions, int64_t rows, int num_heads,
                                 int head_dim, const float* inv_freq, float scale) {
  const int half = head_dim / 2;
  const int64_t pairs = rows * num_heads * half;
  for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < pairs;
       idx += int64_t(gridDim.x) * blockDim.x) {
    const int i = int(idx % half);
    const int64_t row_head = idx / half;
    const int32_t pos = positions[row_head / num_heads];
    if (pos < 0) continue;
    const double angle = double(pos) * double(inv_freq[i]);
    const float c = float(cos(angle)) * scale, s = float(sin(angle)) * scale;
    float* lo = x + row_head * head_dim;
    const float a = lo[i], b = lo[i + half];
    lo[i] = a * c - b * s;
    lo[i + half] = b * c + a * s;
  }
}

}  // namespace

void rope_neox(float* x, const int32_t* positions, int64_t rows, int num_heads, int head_dim,
               const float* inv_freq, float scale, cudaStream_t stream) {
  const int64_t pairs = rows * num_heads * (head_dim / 2);
  if (pairs <= 0) return;
  rope_neox_kernel<<<detail::grid_for(pairs), detail::kThreads, 0, stream>>>(
      x, positions, rows, num_heads, head_dim, inv_freq, scale);
  INFERGATE_CUDA_CHECK_LAUNCH();
}

}  // namespace infergate::cuda
