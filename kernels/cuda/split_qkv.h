// The fused q|k|v projection's rows apart, biases added, on the GPU; twin of
// kernels/cpu/split_qkv.h. Device pointers; queued on `stream`.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace infergate::cuda {

// qkv: [rows, q_width + 2 * kv_width]; q [rows, q_width], k and v [rows, kv_width]. Each bias
// may be null (no bias).
void split_qkv(const float* qkv, int64_t rows, int64_t q_width, int64_t kv_width, const float* bq,
               const float* bk, const float* bv, float* q, float* k, float* v, cudaStream_t stream);

}  // namespace infergate::cuda
