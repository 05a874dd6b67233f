#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kernels/cuda/launch.cuh"
#include "kernels/cuda/write_kv.h"

namespace infergate::cuda {
namespace {

__device__ inline float to_cache(float x, float*) { return x; }
__device__ inline __nv_bfloat16 to_cache(float x, __nv_bfloat16*) { return __float2bfloat16_rn(x); }
__device__ inline __half to_cache(float x, __half*) { return __float2half_rn(x); }

template <typename T>
__global__ void write_kv_kernel(const float* k, const float* v, const int64_t* slot_mapping,
                                int64_t num_tokens, int64_t width, T* k_cache, T* v_cache) {
  const int64_t total = num_tokens * width;
  for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < total;
       idx += int64_t(gridDim.x) * blockDim.x) {
    const int64_t slot = slot_mapping[idx / width];
    if (slot < 0) continue;
    const int64_t dst = slot * width + idx % width;
    k_cache[dst] = to_cache(k[idx], k_cache);
    v_cache[dst] = to_cache(v[idx], v_cache);
  }
}

template <typename T>
void launch_write_kv(const float* k, const float* v, const int64_t* slot_mapping,
                     int64_t num_tokens, int64_t width, T* k_cache, T* v_cache,
                     cudaStream_t stream) {
  if (num_tokens <= 0 || width <= 0) return;
  write_kv_kernel<<<detail::grid_for(num_tokens * width), detail::kThreads, 0, stream>>>(
      k, v, slot_mapping, num_tokens, width, k_cache, v_cache);
  INFERGATE_CUDA_CHECK_LAUNCH();
}

}  // namespace

void write_kv(const float* k, const float* v, const int64_t* slot_mapping, int64_t num_tokens,
              int64_t width, float* k_cache, float* v_cache, cudaStream_t stream) {
  launch_write_kv(k, v, slot_mapping, num_tokens, width, k_cache, v_cache, stream);
}

void write_kv_bf16(const float* k, const float* v, const int64_t* slot_mapping, int64_t num_tokens,
                   int64_t width, uint16_t* k_cache, uint16_t* v_cache, cudaStream_t stream) {
  // uint16_t in the interface keeps cuda_bf16.h out of host code; same size and alignment.
  static_assert(sizeof(__nv_bfloat16) == sizeof(uint16_t), "bf16 is 16 bits");
  launch_write_kv(k, v, slot_mapping, num_tokens, width, reinterpret_cast<__nv_bfloat16*>(k_cache),
                  reinterpret_cast<__nv_bfloat16*>(v_cache), stream);
}

void write_kv_f16(const float* k, const float* v, const int64_t* slot_mapping, int64_t num_tokens,
                  int64_t width, uint16_t* k_cache, uint16_t* v_cache, cudaStream_t stream) {
  static_assert(sizeof(__half) == sizeof(uint16_t), "f16 is 16 bits");
  launch_write_kv(k, v, slot_mapping, num_tokens, width, reinterpret_cast<__half*>(k_cache),
                  reinterpret_cast<__half*>(v_cache), stream);
}

}  // namespace infergate::cuda
