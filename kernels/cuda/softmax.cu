#include <math_constants.h>

#include "kernels/cuda/block_reduce.cuh"
#include "kernels/cuda/launch.cuh"
#include "kernels/cuda/softmax.h"

namespace infergate::cuda {
namespace {

// A running softmax denominator: sum of exp(x - max) over the elements seen.
struct MaxSum {
  float max;
  float sum;
};

// Merges two partial states; a state that saw nothing (max -inf, sum 0) contributes nothing,
// and two such stay empty instead of producing exp(-inf - -inf) = NaN.
__device__ MaxSum merge(MaxSum a, MaxSum b) {
  const float m = fmaxf(a.max, b.max);
  if (m == -CUDART_INF_F) return {m, 0.0f};
  return {m, a.sum * expf(a.max - m) + b.sum * expf(b.max - m)};
}

__device__ MaxSum warp_merge(MaxSum s) {
  for (int offset = detail::kWarpSize / 2; offset > 0; offset /= 2) {
    const MaxSum other{__shfl_xor_sync(0xffffffffu, s.max, offset),
                       __shfl_xor_sync(0xffffffffu, s.sum, offset)};
    s = merge(s, other);
  }
  return s;
}

// Same shape as detail::block_sum: every warp merges all the warps' partials itself.
__device__ MaxSum block_merge(MaxSum s) {
  __shared__ MaxSum partial[detail::kWarpSize];
  const int lane = threadIdx.x % detail::kWarpSize, warp = threadIdx.x / detail::kWarpSize;
  s = warp_merge(s);
  if (lane == 0) partial[warp] = s;
  __syncthreads();
  const bool has = lane < int(blockDim.x / detail::kWarpSize);
  return warp_merge(has ? partial[lane] : MaxSum{-CUDART_INF_F, 0.0f});
}

__global__ void softmax_kernel(const float* x, int64_t n, float* out) {
  const float* xr = x + int64_t(blockIdx.x) * n;
  float* orow = out + int64_t(blockIdx.x) * n;
  MaxSum s{-CUDART_INF_F, 0.0f};
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    const float v = xr[i];
    if (v > s.max) {
      s.sum = s.sum * expf(s.max - v) + 1.0f;
      s.max = v;
    } else {
      s.sum += expf(v - s.max);
    }
  }
  s = block_merge(s);
  const float inv = 1.0f / s.sum;
  // Each thread rewrites only elements it read itself: out may alias x.
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) orow[i] = expf(xr[i] - s.max) * inv;
}

}  // namespace

void softmax_rows(const float* x, int64_t rows, int64_t n, float* out, cudaStream_t stream) {
  if (rows <= 0 || n <= 0) return;
  softmax_kernel<<<unsigned(rows), detail::kThreads, 0, stream>>>(x, n, out);
  INFERGATE_CUDA_CHECK_LAUNCH();
}

}  // namespace infergate::cuda
