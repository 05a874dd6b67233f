// Internal: the layout quantized weights (Q8_0, Q4_0, Q4_1) are repacked into at load, so that one
// 256-bit load holds the same four k of eight output rows and one vpdpbusd (or vpmaddubsw)
// multiplies them by four broadcast activations: eight rows' dot products advance per
// instruction, with no horizontal sums. Same bytes as the file: nothing is dequantized.
//
// Rows are taken in groups of kQuantGroupRows (the last group padded with zero rows). For group
// g and block b, at byte offset (g * blocks + b) * kQuantGroupRows * block_bytes:
//   the eight rows' fp16 scales d (16 bytes), for Q4_1 then their fp16 minimums m (16 bytes),
//   then
//   Q8_0: for quad t < 8, for row r < 8: q[r][32b + 4t + u] + 128 as uint8, u < 4 (256 bytes);
//         offset binary, so vpdpbusd can take the weight as its unsigned operand;
//   Q4_0, Q4_1: for quad t < 4, for row r < 8: the row's nibble bytes qs[4t .. 4t + 3] (128
//         bytes): low nibbles are k = 32b + 4t + u, high nibbles k = 32b + 16 + 4t + u.
// Q8_0 and Q4_0 make each weight an unsigned value v with w = d (v - z) (z = 128 for Q8_0, 8 for
// Q4_0), and sum_k w_k x_k = d (sum_k v_k x_k - z * sum_k x_k): the kernels subtract z times the
// activation block's sum. Q4_1's w = d v + m adds m times it instead.
#pragma once

#include <cstdint>

#include "kernels/tensor.h"

namespace infergate::detail {

inline constexpr int64_t kQuantGroupRows = 8;

// Bytes before a group block's quants: the eight rows' fp16 d (and for Q4_1 their fp16 m).
inline constexpr int64_t quant_group_header_bytes(DType dtype) {
  return (dtype == DType::kQ4_1 ? 4 : 2) * kQuantGroupRows;
}

inline constexpr int64_t quant_groups(int64_t rows) {
  return (rows + kQuantGroupRows - 1) / kQuantGroupRows;
}

// src: row-major [n, k] blocks of `dtype`; dst: quant_groups(n) * 8 rows' bytes.
void pack_quant_groups(const uint8_t* src, DType dtype, int64_t n, int64_t k, uint8_t* dst);
// The inverse, for rows [0, n).
void unpack_quant_groups(const uint8_t* src, DType dtype, int64_t n, int64_t k, uint8_t* dst);

}  // namespace infergate::detail
