// Causal attention over vLLM's paged KV cache for prefill and mixed batches, FlashAttention-2
// style; twin of kernels/cpu/paged_attention.h's paged_attention. Device pointers; queued on
// `stream`.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/cuda/attention_batch.h"

namespace infergate::cuda {

// q, out: [num_tokens, num_heads * head_dim] fp32. Sequence s's queries are rows
// [query_start, query_start + query_len) at positions context_len - query_len ...; each attends
// to every cached position up to its own (the cache already holds the new tokens' K/V, as
// write_kv leaves it), so a chunk after a cached prefix reads the prefix from the cache too.
// Query head h reads KV head h / (num_heads / num_kv_heads). Any query_len >= 1 and context_len
// >= query_len per sequence (device-side, unchecked); batch.max_query_len must be their maximum.
// head_dim: even, at most 256 (above 128 a block needs 145 KB of shared memory: A100, H100).
// sliding_window > 0: the query at position p attends to (p - sliding_window, p] only, as the
// CPU's; no position before its block's first row's window is read, so blocks wholly behind it
// may have been released (any table entry). Throws std::invalid_argument on arguments the host
// can check.
void attention_prefill(const float* q, const DeviceAttentionBatch& batch,
                       const DeviceKvLayer& cache, int num_heads, float scale, float* out,
                       cudaStream_t stream, int64_t sliding_window = 0);

}  // namespace infergate::cuda
