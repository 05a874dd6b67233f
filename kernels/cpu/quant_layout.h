// Internal: the layout quantized weights (Q8_0 and W8A8, Q4_0, Q4_1, Q4_K) are repacked into at
// load, so that one 256-bit load holds the same four k of eight output rows and one vpdpbusd (or
// vpmaddubsw) multiplies them by four broadcast activations: eight rows' dot products advance
// per instruction, with no horizontal sums. The file's values: nothing is dequantized.
//
// Rows are taken in groups of kQuantGroupRows (the last group padded with zero rows). A group
// block is the eight rows' blocks of one format block; group g, block b is at byte offset
// (g * blocks + b) * quant_group_block_bytes(dtype):
//   the eight rows' fp16 scales d (16 bytes), for Q4_1 then their fp16 minimums m (16 bytes),
//   then
//   Q8_0: for quad t < 8, for row r < 8: q[r][32b + 4t + u] + 128 as uint8, u < 4 (256 bytes);
//         offset binary, so vpdpbusd can take the weight as its unsigned operand;
//   Q4_0, Q4_1: for quad t < 4, for row r < 8: the row's nibble bytes qs[4t .. 4t + 3] (128
//         bytes): low nibbles are k = 32b + 4t + u, high nibbles k = 32b + 16 + 4t + u.
//   Q4_K (a 256-value super-block; q4_k_block.h): the eight rows' fp16 d, then fp16 dmin
//         (16 + 16 bytes), then per sub-block s < 8 the eight rows' 6-bit scales as bytes (64),
//         the same for the minimums (64), then for chunk c < 4, quad t < 8, row r < 8 the row's
//         bytes qs[32c + 4t .. 32c + 4t + 3] (1024): low nibbles are sub-block 2c, high
//         nibbles 2c + 1. 148 bytes per row and super-block against the file's 144: the
//         scales unpacked so that eight rows' load as one vector.
// Q8_0 and Q4_0 make each weight an unsigned value v with w = d (v - z) (z = 128 for Q8_0, 8 for
// Q4_0), and sum_k w_k x_k = d (sum_k v_k x_k - z * sum_k x_k): the kernels subtract z times the
// activation block's sum. Q4_1's w = d v + m adds m times it instead; Q4_K's w = (d scale_s) v -
// dmin min_s subtracts dmin min_s times it, per 32-value sub-block.
#pragma once

#include <cstdint>

#include "kernels/tensor.h"

namespace infergate::detail {

inline constexpr int64_t kQuantGroupRows = 8;

// W8A8 weights are Q8_0 blocks (with one scale per row) and take Q8_0's layout.
inline constexpr bool has_q8_layout(DType dtype) {
  return dtype == DType::kQ8_0 || dtype == DType::kW8A8;
}
inline constexpr int64_t kQ4_KGroupHeader = 4 * kQuantGroupRows + 2 * 8 * kQuantGroupRows;

// Bytes before a group block's quants: the eight rows' fp16 d (and for Q4_1 their fp16 m; for
// Q4_K d, dmin and the unpacked 6-bit scales and minimums).
inline constexpr int64_t quant_group_header_bytes(DType dtype) {
  if (dtype == DType::kQ4_K) return kQ4_KGroupHeader;
  return (dtype == DType::kQ4_1 ? 4 : 2) * kQuantGroupRows;
}

// Bytes of one group block: eight rows of one format block, as laid out above.
inline constexpr int64_t quant_group_block_bytes(DType dtype) {
  if (dtype == DType::kQ4_K) return kQ4_KGroupHeader + kQuantGroupRows * kQ4_KBlock / 2;
  return quant_group_header_bytes(dtype) +
         kQuantGroupRows * (has_q8_layout(dtype) ? kQuantBlock : kQuantBlock / 2);
}

inline constexpr int64_t quant_groups(int64_t rows) {
  return (rows + kQuantGroupRows - 1) / kQuantGroupRows;
}

// Bytes of one group of eight rows of k values (k whole format blocks).
inline int64_t quant_group_bytes(DType dtype, int64_t k) {
  return k / dtype_block_elems(dtype) * quant_group_block_bytes(dtype);
}

// src: row-major [n, k] blocks of `dtype`; dst: quant_groups(n) * quant_group_bytes(dtype, k).
void pack_quant_groups(const uint8_t* src, DType dtype, int64_t n, int64_t k, uint8_t* dst);
// The inverse, for rows [0, n).
void unpack_quant_groups(const uint8_t* src, DType dtype, int64_t n, int64_t k, uint8_t* dst);

}  // namespace infergate::detail
