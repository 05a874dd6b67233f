// A fused q|k|v projection's rows apart, with the projections' biases added (Qwen2-style
// models have them; most do not).
#pragma once

#include <cstdint>

namespace infergate {

// qkv: [rows, q_width + 2 * kv_width], each row [q | k | v]. Writes q [rows, q_width] and k, v
// [rows, kv_width], adding bq / bk / bv (each may be null: no bias) to every row.
void split_qkv(const float* qkv, int64_t rows, int64_t q_width, int64_t kv_width, const float* bq,
               const float* bk, const float* bv, float* q, float* k, float* v);

}  // namespace infergate
