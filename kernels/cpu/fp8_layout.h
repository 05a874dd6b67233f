// Internal: the layout fp8 weights (fp8_blocks.h) are repacked into at load, as quant_layout.h
// does for the integer formats: rows in groups of eight (the last padded with zero rows), so one
// 256-bit load holds four consecutive k of all eight rows and the kernels advance eight dot
// products at once with no horizontal sums until the end of the row.
//
// Group g, block b (128 values) is at byte offset (g * blocks + b) * kFp8GroupBlockBytes: the
// eight rows' fp32 scales (32 bytes), then for quad t < 32, row r < 8: the row's codes
// 4t .. 4t + 3 of the block (1024 bytes). The file's codes and scales, moved: 132 bytes per row
// and block, as in the file. Scales are never negative (the loaders refuse that; one that comes
// anyway is folded into its codes' signs), so a scale's sign bit is free: it flags a row block
// that the AVX2 kernels' shifts should not take (fp8_avx2.cc): one with a subnormal code
// (exponent field 0, mantissa not), which they would widen to a subnormal fp32, or with a scale
// of 2^8 or more. Kernels read the scale's magnitude; unpack_fp8_groups clears the bit.
#pragma once

#include <cstdint>

#include "kernels/tensor.h"

namespace infergate::detail {

inline constexpr int64_t kFp8GroupRows = 8;
inline constexpr int64_t kFp8GroupScaleBytes = 4 * kFp8GroupRows;
inline constexpr int64_t kFp8GroupBlockBytes = kFp8GroupScaleBytes + kFp8GroupRows * kFp8Block;

inline constexpr uint32_t kFp8F16RouteFlag = 0x80000000u;  // in a packed scale's bits
inline constexpr float kFp8ShiftedScaleLimit = 256.0f;     // scales from here take the fp16 route
inline constexpr bool fp8_is_subnormal(uint8_t code) {
  return (code & 0x78u) == 0 && (code & 0x07u) != 0;
}

inline constexpr int64_t fp8_groups(int64_t rows) {
  return (rows + kFp8GroupRows - 1) / kFp8GroupRows;
}
// Bytes of one group of eight rows of k values (k whole blocks).
inline constexpr int64_t fp8_group_bytes(int64_t k) { return k / kFp8Block * kFp8GroupBlockBytes; }

// Fp8Kernels::dot_groups's walk for kernels that take activation rows two at a time: for each
// row group, pair(x_i, group, valid, c_i) on rows i and i + 1, one(...) on a last odd row (x_i:
// row i of x; c_i: row i of c at the group's first column; valid: the group's real rows).
template <typename Pair, typename One>
inline void for_row_groups_in_pairs(const float* x, int64_t m, int64_t k, const uint8_t* w,
                                    int64_t groups, int64_t rows, float* c, int64_t ldc, Pair pair,
                                    One one) {
  const int64_t group_bytes = fp8_group_bytes(k);
  for (int64_t g = 0; g < groups; ++g) {
    const int64_t left = rows - g * kFp8GroupRows;
    const int valid = static_cast<int>(left < kFp8GroupRows ? left : kFp8GroupRows);
    const uint8_t* group = w + g * group_bytes;
    for (int64_t i = 0; i < m; i += 2) {
      float* ci = c + i * ldc + g * kFp8GroupRows;
      if (m - i >= 2) {
        pair(x + i * k, group, valid, ci);
      } else {
        one(x + i * k, group, valid, ci);
      }
    }
  }
}

// src: row-major [n, k] fp8 blocks; dst: fp8_groups(n) * fp8_group_bytes(k) bytes.
void pack_fp8_groups(const uint8_t* src, int64_t n, int64_t k, uint8_t* dst);
// The inverse, for rows [0, n).
void unpack_fp8_groups(const uint8_t* src, int64_t n, int64_t k, uint8_t* dst);

}  // namespace infergate::detail
