#include "kernels/cuda/launch.cuh"
#include "kernels/cuda/split_qkv.h"

namespace infergate::cuda {
namespace {

// One thread per element of a qkv row; the column says which output (and bias) it belongs to.
__global__ void split_qkv_kernel(const float* qkv, int64_t rows, int64_t q_width, int64_t kv_width,
                                 const float* bq, const float* bk, const float* bv, float* q,
                                 float* k, float* v) {
  const int64_t width = q_width + 2 * kv_width, n = rows * width;
  for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < n;
       idx += int64_t(gridDim.x) * blockDim.x) {
    const int64_t r = idx / width, col = idx % width;
    const float x = qkv[idx];
    if (col < q_width) {
      q[r * q_width + col] = bq ? x + bq[col] : x;
    } else if (col < q_width + kv_width) {
      const int64_t j = col - q_width;
      k[r * kv_width + j] = bk ? x + bk[j] : x;
    } else {
      const int64_t j = col - q_width - kv_width;
      v[r * kv_width + j] = bv ? x + bv[j] : x;
    }
  }
}

}  // namespace

void split_qkv(const float* qkv, int64_t rows, int64_t q_width, int64_t kv_width, const float* bq,
               const float* bk, const float* bv, float* q, float* k, float* v,
               cudaStream_t stream) {
  const int64_t n = rows * (q_width + 2 * kv_width);
  if (n <= 0) return;
  split_qkv_kernel<<<detail::grid_for(n), detail::kThreads, 0, stream>>>(
      qkv, rows, q_width, kv_width, bq, bk, bv, q, k, v);
  INFERGATE_CUDA_CHECK_LAUNCH();
}

}  // namespace infergate::cuda
