// Causal attention over a paged KV cache (vLLM's PagedAttention layout), and the cache write.
#pragma once

#include <cstdint>

#include "kernels/cpu/thread_pool.h"
#include "kernels/tensor.h"

namespace infergate {

// One layer's K and V caches, each [num_blocks, block_size, num_kv_heads, head_dim] in `dtype`.
// Slot s lives in block s / block_size at offset s % block_size. The scaled formats (int8,
// fp8_e4m3; kernels/cpu/kv_quant.h) keep one fp32 scale per row beside the codes: the row of
// slot s and KV head h has scale k_scale[s * num_kv_heads + h] (and v_scale).
struct KvLayerView {
  void* k = nullptr;
  void* v = nullptr;
  DType dtype = DType::kF32;
  int64_t num_blocks = 0;
  int block_size = 16;
  int num_kv_heads = 0;
  int head_dim = 0;
  float* k_scale = nullptr;  // [num_blocks, block_size, num_kv_heads]; scaled formats only
  float* v_scale = nullptr;
};

// Writes token t's k/v ([num_tokens, num_kv_heads * head_dim], fp32) into slot slot_mapping[t],
// each row quantized with its own scale in the scaled formats. A negative slot skips the token.
void write_kv(const float* k, const float* v, const int64_t* slot_mapping, int64_t num_tokens,
              const KvLayerView& cache);

// One sequence's share of a flattened batch: its queries are rows
// [query_start, query_start + query_len) and sit at positions context_len - query_len ... ,
// each attending to every cached position up to its own (the cache already holds them).
struct AttentionSequence {
  int64_t query_start = 0;
  int64_t query_len = 0;
  int64_t context_len = 0;
  const int32_t* block_table = nullptr;
};

// q: [num_tokens, num_heads * head_dim]; out: same shape. Grouped-query attention: query head h
// reads KV head h / (num_heads / num_kv_heads). sliding_window > 0: the query at position p
// attends to positions (p - sliding_window, p] only (Mistral's window, as Hugging Face masks it),
// and nothing before reads the block table (those blocks may have been freed).
void paged_attention(const float* q, const AttentionSequence* seqs, int64_t num_seqs,
                     const KvLayerView& cache, int num_heads, float scale, float* out,
                     ThreadPool& pool, int64_t sliding_window = 0);

}  // namespace infergate
