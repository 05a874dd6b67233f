// Internal: the AVX-512 fp8 kernels, written once over how codes are widened (fp8_avx512.cc
// through fp16, fp8_vbmi.cc through byte tables). A Widener has kScaleFactor (what its values
// must be multiplied by) and widen(p, w), which turns 64 bytes of a group block (a pair of
// quads, fp8_layout.h) into w[0] rows 0-3 and w[1] rows 4-7 of the first quad, w[2] and w[3]
// of the second, each at lane 4r + u (u the position in the quad). A row group accumulates in
// two such vectors per activation row and scales each block once. Included only by translation
// units compiled with the AVX-512 flags.
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <cstdint>

#include "kernels/cpu/fp8_layout.h"

namespace infergate::detail {
namespace {

constexpr int kRows = static_cast<int>(kFp8GroupRows);
constexpr int kPairs = static_cast<int>(kFp8Block / 8);  // 64-byte pairs of quads per block
constexpr int kMaxMr = 3;  // rows that stream the weights; more take the widened path
// How far ahead a GEMV prefetches: its widening is compute enough that the hardware prefetcher
// alone leaves DRAM bandwidth unused (BM_ModelLinears m = 1 on Zen 5: 0.9-1.0x q8_0's time
// at 2-8 KiB ahead, 1.1x without).
constexpr int kPrefetchBytes = 4096;

// The eight rows' scales of a group block (their magnitudes: the sign is a flag, fp8_layout.h),
// times `factor`, spread to lanes 4r + u: rows 0-3 in lo, 4-7 in hi.
inline void spread_scales(const uint8_t* gb, float factor, __m512& lo, __m512& hi) {
  const __m256 magnitude = _mm256_and_ps(_mm256_loadu_ps(reinterpret_cast<const float*>(gb)),
                                         _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff)));
  const __m512 s = _mm512_castps256_ps512(_mm256_mul_ps(magnitude, _mm256_set1_ps(factor)));
  lo = _mm512_permutexvar_ps(_mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3), s);
  hi = _mm512_permutexvar_ps(_mm512_setr_epi32(4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7), s);
}

// Lanes 4r + u summed over u, for rows 0-3 (lo) and 4-7 (hi), into out[r].
inline void store_row_sums(__m512 lo, __m512 hi, int valid, float* out) {
  alignas(64) float l[16], h[16];
  _mm512_store_ps(l, lo);
  _mm512_store_ps(h, hi);
  for (int r = 0; r < valid; ++r) {
    const float* p = r < 4 ? l + 4 * r : h + 4 * (r - 4);
    out[r] = (p[0] + p[1]) + (p[2] + p[3]);
  }
}

// MR activation rows against one group; U pairs of quads in flight per row, so that one FMA's
// latency does not serialize the few rows of a GEMV.
template <int MR, int U, typename Widener>
void dot_group(const Widener& wd, const float* x, int64_t k, const uint8_t* group, int valid,
               float* c, int64_t ldc) {
  __m512 total[MR][2];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) total[i][0] = total[i][1] = _mm512_setzero_ps();
  const int64_t blocks = k / kFp8Block;
  for (int64_t b = 0; b < blocks; ++b) {
    const uint8_t* gb = group + b * kFp8GroupBlockBytes;
    const uint8_t* quads = gb + kFp8GroupScaleBytes;
    const float* xb = x + b * kFp8Block;
    __m512 acc[MR][4][U];
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 8
      for (int j = 0; j < 4; ++j) {
#pragma GCC unroll 8
        for (int u = 0; u < U; ++u) acc[i][j][u] = _mm512_setzero_ps();
      }
    }
    for (int p = 0; p < kPairs; p += U) {
#pragma GCC unroll 8
      for (int u = 0; u < U; ++u) {
        __m512 w[4];
        if constexpr (MR == 1) {  // a GEMV streams the weights once: fetch ahead of the widening
          _mm_prefetch(reinterpret_cast<const char*>(quads) + 64 * (p + u) + kPrefetchBytes,
                       _MM_HINT_T0);
        }
        wd.widen(quads + 64 * (p + u), w);
#pragma GCC unroll 8
        for (int i = 0; i < MR; ++i) {
          const float* xq = xb + i * k + 8 * (p + u);
          const __m512 x0 = _mm512_broadcast_f32x4(_mm_loadu_ps(xq));
          const __m512 x1 = _mm512_broadcast_f32x4(_mm_loadu_ps(xq + 4));
          acc[i][0][u] = _mm512_fmadd_ps(w[0], x0, acc[i][0][u]);
          acc[i][1][u] = _mm512_fmadd_ps(w[1], x0, acc[i][1][u]);
          acc[i][2][u] = _mm512_fmadd_ps(w[2], x1, acc[i][2][u]);
          acc[i][3][u] = _mm512_fmadd_ps(w[3], x1, acc[i][3][u]);
        }
      }
    }
    __m512 s_lo, s_hi;
    spread_scales(gb, Widener::kScaleFactor, s_lo, s_hi);
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
      __m512 lo = _mm512_add_ps(acc[i][0][0], acc[i][2][0]);
      __m512 hi = _mm512_add_ps(acc[i][1][0], acc[i][3][0]);
#pragma GCC unroll 8
      for (int u = 1; u < U; ++u) {
        lo = _mm512_add_ps(lo, _mm512_add_ps(acc[i][0][u], acc[i][2][u]));
        hi = _mm512_add_ps(hi, _mm512_add_ps(acc[i][1][u], acc[i][3][u]));
      }
      total[i][0] = _mm512_fmadd_ps(lo, s_lo, total[i][0]);
      total[i][1] = _mm512_fmadd_ps(hi, s_hi, total[i][1]);
    }
  }
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) store_row_sums(total[i][0], total[i][1], valid, c + i * ldc);
}

// Activation rows [0, MR) of a tile against one widened block (wb: kPairs x 4 vectors, as
// Widener::widen gives them), its sums scaled into totals ([MR][2], rows 0-3 and 4-7).
template <int MR>
void tile_against_block(const __m512* wb, const float* xb, int64_t k, __m512 s_lo, __m512 s_hi,
                        __m512* totals) {
  __m512 lo[MR], hi[MR];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) lo[i] = hi[i] = _mm512_setzero_ps();
  for (int p = 0; p < kPairs; ++p) {
    const __m512* w = wb + 4 * p;
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
      const __m512 x0 = _mm512_broadcast_f32x4(_mm_loadu_ps(xb + i * k + 8 * p));
      const __m512 x1 = _mm512_broadcast_f32x4(_mm_loadu_ps(xb + i * k + 8 * p + 4));
      lo[i] = _mm512_fmadd_ps(w[0], x0, lo[i]);
      hi[i] = _mm512_fmadd_ps(w[1], x0, hi[i]);
      lo[i] = _mm512_fmadd_ps(w[2], x1, lo[i]);
      hi[i] = _mm512_fmadd_ps(w[3], x1, hi[i]);
    }
  }
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) {
    totals[2 * i] = _mm512_fmadd_ps(lo[i], s_lo, totals[2 * i]);
    totals[2 * i + 1] = _mm512_fmadd_ps(hi[i], s_hi, totals[2 * i + 1]);
  }
}

constexpr int kTileRows = 6;       // 12 accumulators: FMA-bound, not latency-bound
constexpr int64_t kWideRows = 64;  // activation rows per pass of the widened path

// Many activation rows against one group: each block is widened once (4 KiB of fp32, in L1) and
// every row runs against it, so the widening costs once per block instead of once per few rows.
template <typename Widener>
void dot_group_widened(const Widener& wd, const float* x, int64_t m, int64_t k,
                       const uint8_t* group, int valid, float* c, int64_t ldc) {
  alignas(64) __m512 wb[4 * kPairs];
  alignas(64) __m512 totals[2 * kWideRows];
  for (int64_t i = 0; i < 2 * m; ++i) totals[i] = _mm512_setzero_ps();
  for (int64_t b = 0; b < k / kFp8Block; ++b) {
    const uint8_t* gb = group + b * kFp8GroupBlockBytes;
    for (int p = 0; p < kPairs; ++p) wd.widen(gb + kFp8GroupScaleBytes + 64 * p, wb + 4 * p);
    __m512 s_lo, s_hi;
    spread_scales(gb, Widener::kScaleFactor, s_lo, s_hi);
    const float* xb = x + b * kFp8Block;
    for (int64_t i = 0; i < m; i += kTileRows) {
      __m512* t = totals + 2 * i;
      switch (std::min<int64_t>(kTileRows, m - i)) {
        case 1:
          tile_against_block<1>(wb, xb + i * k, k, s_lo, s_hi, t);
          break;
        case 2:
          tile_against_block<2>(wb, xb + i * k, k, s_lo, s_hi, t);
          break;
        case 3:
          tile_against_block<3>(wb, xb + i * k, k, s_lo, s_hi, t);
          break;
        case 4:
          tile_against_block<4>(wb, xb + i * k, k, s_lo, s_hi, t);
          break;
        case 5:
          tile_against_block<5>(wb, xb + i * k, k, s_lo, s_hi, t);
          break;
        default:
          tile_against_block<6>(wb, xb + i * k, k, s_lo, s_hi, t);
          break;
      }
    }
  }
  for (int64_t i = 0; i < m; ++i)
    store_row_sums(totals[2 * i], totals[2 * i + 1], valid, c + i * ldc);
}

// Fp8Kernels::dot_groups with `wd`'s widening: a few activation rows stream the groups, more
// take the widened path.
template <typename Widener>
void dot_groups_with(const Widener& wd, const float* x, int64_t m, int64_t k, const uint8_t* w,
                     int64_t groups, int64_t rows, float* c, int64_t ldc) {
  const int64_t group_bytes = fp8_group_bytes(k);
  for (int64_t g = 0; g < groups; ++g) {
    const int valid = static_cast<int>(std::min<int64_t>(kRows, rows - g * kRows));
    const uint8_t* group = w + g * group_bytes;
    if (m > kMaxMr) {
      for (int64_t i = 0; i < m; i += kWideRows) {
        dot_group_widened(wd, x + i * k, std::min(kWideRows, m - i), k, group, valid,
                          c + i * ldc + g * kRows, ldc);
      }
      continue;
    }
    float* cg = c + g * kRows;
    if (m == 1) {
      dot_group<1, 2>(wd, x, k, group, valid, cg, ldc);
    } else if (m == 2) {
      dot_group<2, 1>(wd, x, k, group, valid, cg, ldc);
    } else {
      dot_group<3, 1>(wd, x, k, group, valid, cg, ldc);
    }
  }
}

}  // namespace
}  // namespace infergate::detail
