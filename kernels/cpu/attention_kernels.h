// Internal: one unit of paged-attention work and the per-ISA functions that do it. As with
// linear_kernels.h, the ISA translation units see raw pointers only.
#pragma once

#include <cstdint>

#include "kernels/cpu/cpu_features.h"
#include "kernels/cpu/paged_attention.h"

namespace infergate::detail {

// KV positions handled per step of the online softmax (four AVX-512 vectors of scores).
inline constexpr int kKvChunk = 64;
// Queries of one sequence that share each K/V chunk load.
inline constexpr int kQueryBlock = 16;

// Queries [first_query, first_query + num_queries) of one sequence, for the query heads that
// read KV head `kv_head` (heads kv_head * group ... + group - 1).
struct AttentionWork {
  const float* q = nullptr;  // row of the first query: [*, num_heads * head_dim]
  float* out = nullptr;      // same layout as q
  int64_t first_pos = 0;     // position of the first query; query j sits at first_pos + j
  int num_queries = 0;
  int kv_head = 0;
  int group = 1;  // query heads per KV head
  int num_heads = 0;
  float scale = 1.0f;
  int64_t window = 0;  // > 0: position p sees positions (p - window, p] only
  const int32_t* block_table = nullptr;
  const KvLayerView* cache = nullptr;
  // Scratch of attention_scratch_floats(...) floats, 64-byte aligned, owned by the caller.
  float* scratch = nullptr;
};

// The first position the query at `pos` attends to.
inline int64_t window_start(const AttentionWork& w, int64_t pos) {
  return w.window > 0 && pos >= w.window ? pos - w.window + 1 : 0;
}

inline int64_t attention_scratch_floats(int head_dim) {
  const int64_t rows = int64_t(kQueryBlock) * 16;  // group <= 16 is checked by the caller
  return 2 * rows * head_dim + 2 * rows + 2 * int64_t(kKvChunk) * head_dim + 64;
}

using AttendFn = void (*)(const AttentionWork& work);

void attend_portable(const AttentionWork& work);
// Require head_dim % 16 == 0 (AVX-512), % 8 == 0 (AVX2) or % 4 == 0 (NEON) and head_dim <= 256;
// paged_attention checks.
void attend_avx512(const AttentionWork& work);
void attend_avx2(const AttentionWork& work);
void attend_neon(const AttentionWork& work);

}  // namespace infergate::detail
