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
//   The plane formats (Q5_0, Q5_1, Q2_K, Q3_K, Q5_K, Q6_K, IQ4_NL, IQ4_XS; block_codes.h): a
//         header, then per 32-value activation block a the codes q of value k = 4t + u (quad
//         t < 8, u < 4) of row r in planes whose byte 4r + u (of a 32-byte vector) holds them:
//           NIB (128 bytes): vector t % 4, low nibble for t < 4, high for t >= 4: q's low 4 bits
//           HB1 (32 bytes): bit t: q's bit 4 (Q5_0, Q5_1, Q5_K) or bit 2 (Q3_K)
//           CR2 (64 bytes): vector t / 4, bits 2 (t % 4): q's bits 4-5 (Q6_K), bits 0-1 (Q2_K,
//           Q3_K)
//         so a quad of eight rows is one load and two or three shifts and masks. The header: the
//         eight rows' fp16 d (16 bytes), then fp16 m or dmin (Q5_1, Q5_K, Q2_K: 16), then per
//         sub-block s the eight rows' scale codes (int8, index 8s + r) and minimum codes
//         (Q5_K, Q2_K). Per activation block: NIB + HB1 (Q5_0, Q5_1, Q5_K), NIB (IQ4_NL,
//         IQ4_XS), NIB + CR2 (Q6_K), CR2 + HB1 (Q3_K), CR2 (Q2_K). Bytes per row against the
//         file's: as many for Q5_0, Q5_1, Q6_K, IQ4_NL; 138 of 136 (IQ4_XS), 180 of 176 (Q5_K),
//         114 of 110 (Q3_K), 100 of 84 (Q2_K: its scale and minimum nibbles take a byte each).
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

inline constexpr bool has_plane_layout(DType dtype) {
  switch (dtype) {
  INFERGATE_CASE_PLANE_DTYPES:
    return true;
    default:
      return false;
  }
}

// The plane formats' parts (offsets in a group block, 0 where a format has none).
inline constexpr bool plane_has_min(DType dtype) {
  return dtype == DType::kQ5_1 || dtype == DType::kQ5_K || dtype == DType::kQ2_K;
}
inline constexpr int64_t plane_sub_blocks(DType dtype) {
  switch (dtype) {
    case DType::kQ2_K:
    case DType::kQ3_K:
    case DType::kQ6_K:
      return 16;
    case DType::kQ5_K:
    case DType::kIQ4_XS:
      return 8;
    default:
      return 0;
  }
}
// Activation blocks (32 values) per format block: 8 for the super-blocks, 1 for the others.
inline constexpr int64_t plane_activation_blocks(DType dtype) {
  return dtype == DType::kQ5_0 || dtype == DType::kQ5_1 || dtype == DType::kIQ4_NL ? 1 : 8;
}
inline constexpr int64_t plane_scale_offset(DType dtype) {
  return plane_sub_blocks(dtype) == 0 ? 0 : (plane_has_min(dtype) ? 32 : 16);
}
inline constexpr int64_t plane_min_offset(DType dtype) {  // Q5_K, Q2_K: after the scales
  return plane_scale_offset(dtype) + plane_sub_blocks(dtype) * kQuantGroupRows;
}
inline constexpr bool plane_has_nib(DType dtype) {
  return dtype != DType::kQ2_K && dtype != DType::kQ3_K;
}
inline constexpr bool plane_has_hb1(DType dtype) {
  return dtype == DType::kQ5_0 || dtype == DType::kQ5_1 || dtype == DType::kQ5_K ||
         dtype == DType::kQ3_K;
}
inline constexpr bool plane_has_cr2(DType dtype) {
  return dtype == DType::kQ6_K || dtype == DType::kQ2_K || dtype == DType::kQ3_K;
}
// Within an activation block's planes: NIB first, then CR2, then HB1.
inline constexpr int64_t plane_cr2_offset(DType dtype) { return plane_has_nib(dtype) ? 128 : 0; }
inline constexpr int64_t plane_hb1_offset(DType dtype) {
  return plane_cr2_offset(dtype) + (plane_has_cr2(dtype) ? 64 : 0);
}
inline constexpr int64_t plane_block_bytes(DType dtype) {
  return plane_hb1_offset(dtype) + (plane_has_hb1(dtype) ? 32 : 0);
}

// Bytes before a group block's quants: the eight rows' fp16 d (and for Q4_1 their fp16 m; for
// Q4_K d, dmin and the unpacked 6-bit scales and minimums; the plane formats' header above).
inline constexpr int64_t quant_group_header_bytes(DType dtype) {
  if (dtype == DType::kQ4_K) return kQ4_KGroupHeader;
  if (has_plane_layout(dtype)) {
    return plane_scale_offset(dtype) == 0
               ? (plane_has_min(dtype) ? 32 : 16)
               : plane_min_offset(dtype) +
                     (plane_has_min(dtype) ? plane_sub_blocks(dtype) * kQuantGroupRows : 0);
  }
  return (dtype == DType::kQ4_1 ? 4 : 2) * kQuantGroupRows;
}

// Bytes of one group block: eight rows of one format block, as laid out above.
inline constexpr int64_t quant_group_block_bytes(DType dtype) {
  if (dtype == DType::kQ4_K) return kQ4_KGroupHeader + kQuantGroupRows * kQ4_KBlock / 2;
  if (has_plane_layout(dtype)) {
    return quant_group_header_bytes(dtype) +
           plane_activation_blocks(dtype) * plane_block_bytes(dtype);
  }
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

// A plane format's row r, activation block a (32 values) of group block gb: the weights as
// w = dw[h] v + mw[h] for the 16-value half h = k / 16, v the signed value (the code less the
// format's zero, or IQ4's level).
void plane_row_values(const uint8_t* gb, DType dtype, int64_t a, int r, int16_t* v, float* dw,
                      float* mw);

}  // namespace infergate::detail
