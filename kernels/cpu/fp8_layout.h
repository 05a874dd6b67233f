// Internal: the layout fp8 weights (fp8_blocks.h) are repacked into at load, as quant_layout.h
// does for the integer formats: rows in groups of eight (the last padded with zero rows), so one
// 256-bit load holds four consecutive k of all eight rows and the kernels advance eight dot
// products at once with no horizontal sums until the end of the row.
//
// Group g, block b (128 values) is at byte offset (g * blocks + b) * kFp8GroupBlockBytes: the
// eight rows' fp32 scales (32 bytes), then for quad t < 32, row r < 8: the row's codes
// 4t .. 4t + 3 of the block (1024 bytes). The file's codes and scales, moved: 132 bytes per row
// and block, as in the file. Scales are never negative (the loaders refuse that; one that comes
// anyway is folded into its codes' signs), so a scale's sign bit is free: it says whether the row's
// block holds a zero or subnormal code (exponent field 0), which the AVX2 GEMV's nibble tables
// cannot widen (fp8_avx2.cc). Kernels read the scale's magnitude; unpack_fp8_groups clears the bit.
#pragma once

#include <cstdint>

#include "kernels/tensor.h"

namespace infergate::detail {

inline constexpr int64_t kFp8GroupRows = 8;
inline constexpr int64_t kFp8GroupScaleBytes = 4 * kFp8GroupRows;
inline constexpr int64_t kFp8GroupBlockBytes = kFp8GroupScaleBytes + kFp8GroupRows * kFp8Block;

inline constexpr uint32_t kFp8ExponentZeroFlag = 0x80000000u;  // in a packed scale's bits
inline constexpr bool fp8_exponent_is_zero(uint8_t code) { return (code & 0x78u) == 0; }

inline constexpr int64_t fp8_groups(int64_t rows) {
  return (rows + kFp8GroupRows - 1) / kFp8GroupRows;
}
// Bytes of one group of eight rows of k values (k whole blocks).
inline constexpr int64_t fp8_group_bytes(int64_t k) { return k / kFp8Block * kFp8GroupBlockBytes; }

// src: row-major [n, k] fp8 blocks; dst: fp8_groups(n) * fp8_group_bytes(k) bytes.
void pack_fp8_groups(const uint8_t* src, int64_t n, int64_t k, uint8_t* dst);
// The inverse, for rows [0, n).
void unpack_fp8_groups(const uint8_t* src, int64_t n, int64_t k, uint8_t* dst);

}  // namespace infergate::detail
