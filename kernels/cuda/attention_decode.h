// Decode attention (one new token per sequence) over vLLM's paged KV cache, Flash-Decoding
// style: each sequence's context is split into chunks of kDecodeSplitTokens positions processed
// in parallel, then combined. Twin of kernels/cpu/paged_attention.h's paged_attention for
// query_len 1. Device pointers; queued on `stream`.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "kernels/cuda/attention_batch.h"

namespace infergate::cuda {

// Context positions per split. Fixed, so the number of splits (and the workspace) depends on
// max_context_len alone and grows monotonically with every argument.
inline constexpr int64_t kDecodeSplitTokens = 256;

// Bytes of workspace attention_decode needs for these sizes (0 when there is nothing to do):
// per (sequence, query head, split) a partial output row, max and sum in fp32.
size_t attention_decode_workspace_bytes(int64_t num_seqs, int num_heads, int head_dim,
                                        int64_t max_context_len);

// q, out: [num_tokens, num_heads * head_dim] fp32. Precondition (device-side, unchecked): every
// sequence has query_len == 1 and 1 <= context_len <= batch.max_context_len; its query is row
// query_start at position context_len - 1 and attends to the whole context (or its window). Query
// head h reads KV head h / (num_heads / num_kv_heads). head_dim: even, at most 256. workspace:
// device memory of at least attention_decode_workspace_bytes(batch.num_seqs, num_heads,
// cache.head_dim, batch.max_context_len) bytes, used until the work on `stream` is done.
// sliding_window > 0: the query attends to the last sliding_window positions only, and nothing
// before them is read (their blocks may have been released). Throws std::invalid_argument on
// arguments the host can check.
void attention_decode(const float* q, const DeviceAttentionBatch& batch, const DeviceKvLayer& cache,
                      int num_heads, float scale, float* out, void* workspace, cudaStream_t stream,
                      int64_t sliding_window = 0);

}  // namespace infergate::cuda
