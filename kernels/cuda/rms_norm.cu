#include "kernels/cuda/block_reduce.cuh"
#include "kernels/cuda/launch.cuh"
#include "kernels/cuda/rms_norm.h"

namespace infergate::cuda {
namespace {

// One block per row. Each thread reads back only the elements it read (or wrote) in the first
// pass, so out may alias x and the fused form needs no extra barrier.
__global__ void rms_norm_kernel(const float* x, const float* weight, int64_t dim, float eps,
                                float* out) {
  const float* xr = x + int64_t(blockIdx.x) * dim;
  float* orow = out + int64_t(blockIdx.x) * dim;
  float ss = 0.0f;
  for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) ss += xr[i] * xr[i];
  const float inv = 1.0f / sqrtf(detail::block_sum(ss) / float(dim) + eps);
  for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) orow[i] = xr[i] * inv * weight[i];
}

__global__ void add_rms_norm_kernel(float* x, float* residual, const float* weight, int64_t dim,
                                    float eps) {
  float* xr = x + int64_t(blockIdx.x) * dim;
  float* rr = residual + int64_t(blockIdx.x) * dim;
  float ss = 0.0f;
  for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) {
    const float sum = rr[i] + xr[i];
    rr[i] = sum;
    ss += sum * sum;
  }
  const float inv = 1.0f / sqrtf(detail::block_sum(ss) / float(dim) + eps);
  for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) xr[i] = rr[i] * inv * weight[i];
}

}  // namespace

void rms_norm(const float* x, const float* weight, int64_t rows, int64_t dim, float eps, float* out,
              cudaStream_t stream) {
  if (rows <= 0 || dim <= 0) return;
  rms_norm_kernel<<<unsigned(rows), detail::kThreads, 0, stream>>>(x, weight, dim, eps, out);
  INFERGATE_CUDA_CHECK_LAUNCH();
}

void add_rms_norm(float* x, float* residual, const float* weight, int64_t rows, int64_t dim,
                  float eps, cudaStream_t stream) {
  if (rows <= 0 || dim <= 0) return;
  add_rms_norm_kernel<<<unsigned(rows), detail::kThreads, 0, stream>>>(x, residual, weight, dim,
                                                                       eps);
  INFERGATE_CUDA_CHECK_LAUNCH();
}

}  // namespace infergate::cuda
