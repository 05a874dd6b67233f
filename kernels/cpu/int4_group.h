// Group-wise asymmetric INT4, the weight shape GPTQ and AWQ produce: each run of `group`
// consecutive values in a row (128 typically) has one scale s and one integer zero point z in
// [0, 15], and w = s * (q - z) for a code q in [0, 15]. AWQ's rule (llm-awq, pseudo_quantize):
// s = max(max - min, 1e-5) / 15, z = clamp(-round(min / s), 0, 15),
// q = clamp(round(w / s) + z, 0, 15).
//
// Stored as Q4_1 blocks (d = s, m = -s * z, both fp16), which every kernel and llama.cpp run:
// a group of 128 is four Q4_1 blocks repeating one (d, m). That costs 5 bits per weight where a
// packed group-128 layout needs 4.25; the values are the group format's exactly, with s rounded
// to fp16 first (as AWQ checkpoints store it) and m = fp16(-s * z).
#pragma once

#include <cstdint>

#include "kernels/tensor.h"

namespace infergate {

struct Int4Group {
  float scale = 0;  // fp16-representable
  int zero = 0;     // 0 .. 15
};

// The scale and zero point of one group of n values (AWQ's rule, scale rounded to fp16).
Int4Group int4_group_params(const float* x, int64_t n);

// Replaces each value of a row of k values by its group-wise INT4 reconstruction s * (q - z):
// what the quantized weight will compute with (AWQ's search quantizes candidates this way).
// k must be a multiple of `group`.
void fake_quantize_int4(float* row, int64_t k, int64_t group);

// The row as Q4_1 blocks carrying its group-wise INT4 codes: k / 32 blocks of kQ4_1BlockBytes.
// `group` must be a multiple of 32 dividing k.
void quantize_row_int4_as_q4_1(const float* row, int64_t k, int64_t group, uint8_t* out);

// The group a row of k values takes: `group` where it divides k, else kQuantBlock (Q4_1's own
// group of 32), as llama.cpp's k-quants fall back for rows that are not whole super-blocks.
inline int64_t int4_group_for(int64_t k, int64_t group) {
  return k % group == 0 ? group : kQuantBlock;
}

// A [rows, k] matrix of any dtype as a new Q4_1 tensor of group-wise INT4 codes. Throws
// std::invalid_argument unless group is a positive multiple of 32 dividing k.
Tensor quantize_int4_grouped(const Tensor& w, int64_t group);

}  // namespace infergate
