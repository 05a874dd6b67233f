// The batch and cache descriptions both attention kernels take: the device twins of
// kernels/cpu/paged_attention.h's KvLayerView and AttentionSequence. Plain C++ (no device types).
#pragma once

#include <cstdint>

namespace infergate::cuda {

enum class KvDType { kF32, kF16, kBF16 };

// One layer's K/V caches in device memory, the twin of kernels/cpu/paged_attention.h's
// KvLayerView: each [num_blocks, block_size, num_kv_heads, head_dim] in `dtype` (f16/bf16 as raw
// 16-bit values), so slot s lives in block s / block_size at offset s % block_size.
struct DeviceKvLayer {
  const void* k = nullptr;
  const void* v = nullptr;
  KvDType dtype = KvDType::kF32;
  int64_t num_blocks = 0;
  int block_size = 16;
  int num_kv_heads = 0;
  int head_dim = 0;
};

// One sequence of a flattened batch (as AttentionSequence): its queries are rows
// [query_start, query_start + query_len) at positions context_len - query_len ..., and position p
// is in block block_tables[block_table_offset + p / block_size].
struct DeviceAttentionSequence {
  int64_t query_start = 0;
  int64_t query_len = 0;
  int64_t context_len = 0;
  int64_t block_table_offset = 0;
};

struct DeviceAttentionBatch {
  const DeviceAttentionSequence* seqs = nullptr;  // device, num_seqs entries
  int64_t num_seqs = 0;
  const int32_t* block_tables = nullptr;  // device, flat
  int64_t max_query_len = 0;  // maxima over the sequences, known on the host (grid sizes)
  int64_t max_context_len = 0;
};

}  // namespace infergate::cuda
