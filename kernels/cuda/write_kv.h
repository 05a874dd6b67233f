// The KV-cache write on the GPU; twin of kernels/cpu/paged_attention.h's write_kv for an fp32,
// bf16 or f16 cache. Device pointers; queued on `stream`.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace infergate::cuda {

// k, v: [num_tokens, width] (width = num_kv_heads * head_dim). The caches are
// [num_blocks, block_size, num_kv_heads, head_dim], so slot s starts at s * width. Token t goes
// to slot slot_mapping[t]; a negative slot skips the token (padding).
void write_kv(const float* k, const float* v, const int64_t* slot_mapping, int64_t num_tokens,
              int64_t width, float* k_cache, float* v_cache, cudaStream_t stream);
// The same into a bf16 cache (raw bf16 bits), rounded to nearest even as the CPU's
// f32_to_bf16.
void write_kv_bf16(const float* k, const float* v, const int64_t* slot_mapping, int64_t num_tokens,
                   int64_t width, uint16_t* k_cache, uint16_t* v_cache, cudaStream_t stream);
// The same into an IEEE half cache (raw f16 bits), rounded to nearest even as the CPU's f32_to_f16
// (overflow to infinity, subnormals kept).
void write_kv_f16(const float* k, const float* v, const int64_t* slot_mapping, int64_t num_tokens,
                  int64_t width, uint16_t* k_cache, uint16_t* v_cache, cudaStream_t stream);

}  // namespace infergate::cuda
