// Sums across a warp (register shuffles) and across a block (one shared slot per warp).
#pragma once

namespace infergate::cuda::detail {

constexpr int kWarpSize = 32;

__device__ inline float warp_sum(float v) {
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  }
  return v;
}

// Every thread of the block gets the block's sum. blockDim.x: a multiple of 32, at most 1024.
// May be called more than once per kernel (the trailing barrier protects the shared slots).
__device__ inline float block_sum(float v) {
  __shared__ float partial[kWarpSize];
  const int lane = threadIdx.x % kWarpSize, warp = threadIdx.x / kWarpSize;
  v = warp_sum(v);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  // Each warp adds up all the partials itself: no second barrier before the broadcast.
  v = lane < int(blockDim.x / kWarpSize) ? partial[lane] : 0.0f;
  v = warp_sum(v);
  __syncthreads();
  return v;
}

}  // namespace infergate::cuda::detail
