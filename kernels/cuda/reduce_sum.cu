#include "kernels/cuda/block_reduce.cuh"
#include "kernels/cuda/launch.cuh"
#include "kernels/cuda/reduce_sum.h"

namespace infergate::cuda {
namespace {

__global__ void sum_atomic_kernel(const float* x, int64_t n, float* out) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    atomicAdd(out, x[i]);
  }
}

// Each thread's grid-stride partial, then log2(blockDim) halving steps in shared memory, with a
// barrier between steps. blockDim.x must be detail::kThreads (a power of two).
__global__ void sum_shared_tree_kernel(const float* x, int64_t n, float* out) {
  __shared__ float partial[detail::kThreads];
  float v = 0.0f;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    v += x[i];
  }
  partial[threadIdx.x] = v;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}

// The same partials, summed in registers: shuffles within each warp, one shared slot per warp.
__global__ void sum_warp_shuffle_kernel(const float* x, int64_t n, float* out) {
  float v = 0.0f;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    v += x[i];
  }
  v = detail::block_sum(v);
  if (threadIdx.x == 0) atomicAdd(out, v);
}

using SumKernel = void (*)(const float*, int64_t, float*);

void launch_sum(SumKernel kernel, const float* x, int64_t n, float* out, cudaStream_t stream) {
  INFERGATE_CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), stream));
  if (n <= 0) return;
  // At most 1024 blocks: each thread sums a stretch first, so the grid adds at most 1024
  // partials into *out instead of one per 256 elements.
  const unsigned blocks = detail::grid_for(n) < 1024 ? detail::grid_for(n) : 1024;
  kernel<<<blocks, detail::kThreads, 0, stream>>>(x, n, out);
  INFERGATE_CUDA_CHECK_LAUNCH();
}

}  // namespace

void reduce_sum_atomic(const float* x, int64_t n, float* out, cudaStream_t stream) {
  launch_sum(sum_atomic_kernel, x, n, out, stream);
}

void reduce_sum_shared_tree(const float* x, int64_t n, float* out, cudaStream_t stream) {
  launch_sum(sum_shared_tree_kernel, x, n, out, stream);
}

void reduce_sum_warp_shuffle(const float* x, int64_t n, float* out, cudaStream_t stream) {
  launch_sum(sum_warp_shuffle_kernel, x, n, out, stream);
}

}  // namespace infergate::cuda
