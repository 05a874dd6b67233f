// AVX2 kernels of fp8 `linear` (compiled with -mavx2 -mfma -mf16c). A 256-bit load is a quad of
// eight rows (four k each, fp8_layout.h); it widens to four vectors of eight fp32, vector p
// holding every row's code 4t + p, which multiply activation 4t + p broadcast.
//
// Two widenings. The shifts need no conversion and no shuffle: a code s eeee mmm, its exponent
// field left unbiased, is the fp32 bits s 0000 eeee mmm and zeros, its value * 2^-120. A 16-bit
// arithmetic shift by 4 moves each 16-bit lane's high byte there (the sign spread over the gap,
// which a mask clears), a shift by 8 before it the low byte, and a 32-bit shift or the mask
// splits the halves: nine integer operations per 32 weights, where nibble tables needed seven
// shuffles, which Intel cores run on one port. So that no product of such tiny values is
// subnormal, the GEMV multiplies a copy of its activation row scaled to just under 2^62, and the
// several-row kernels the scales times 2^120. A block flagged in fp8_layout.h (a subnormal code,
// which would be a subnormal fp32 that Intel cores multiply through a slow microcode assist, or a
// scale too large for 2^120) takes the fp16 route (vcvtph2ps), which widens every code, as does
// the GEMV on a row with a value that is not finite. One or two activation rows widen each quad
// as they go; from four rows each block is widened once and every row runs against it.
// docs/quantization.md, "FP8 against Q8_0", has the speeds.
#include "kernels/cpu/fp8_kernels.h"

#if defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "kernels/cpu/fp8_e4m3.h"
#include "kernels/cpu/fp8_layout.h"

namespace infergate::detail {

namespace {

constexpr int kRows = static_cast<int>(kFp8GroupRows);
constexpr int kQuads = static_cast<int>(kFp8Block / 4);

// Both wideners give a quad as four vectors, w[p] holding the eight rows' code 4t + p.

// Every code, as value * 2^-120 (fp8_layout.h keeps subnormal codes away).
struct ShiftWidener {
  static constexpr float kScaleFactor = 0x1p120f;

  static inline void widen(const uint8_t* quad, __m256 w[4]) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(quad));
    const __m256i odd = _mm256_srai_epi16(v, 4);                         // codes 1 and 3
    const __m256i even = _mm256_srai_epi16(_mm256_slli_epi16(v, 8), 4);  // codes 0 and 2
    const __m256i keep = _mm256_set1_epi32(static_cast<int>(0x87F00000u));
    w[0] = _mm256_castsi256_ps(_mm256_and_si256(_mm256_slli_epi32(even, 16), keep));
    w[1] = _mm256_castsi256_ps(_mm256_and_si256(_mm256_slli_epi32(odd, 16), keep));
    w[2] = _mm256_castsi256_ps(_mm256_and_si256(even, keep));
    w[3] = _mm256_castsi256_ps(_mm256_and_si256(odd, keep));
  }
};

// Every code, as value / 256 through fp16 (the sign to bit 15, the rest shifted up by 7;
// fp8_e4m3.h): each 128-bit half's four rows' codes transposed to code-major order, the halves'
// runs interleaved so that eight bytes hold one code of all eight rows.
struct F16Widener {
  static constexpr float kScaleFactor = kFp8AsF16Factor;

  static inline __m256i f16_bits(__m128i codes) {
    const __m256i h = _mm256_slli_epi16(_mm256_cvtepi8_epi16(codes), 7);
    return _mm256_and_si256(h, _mm256_set1_epi16(static_cast<short>(0xBF80)));
  }

  static inline void widen(const uint8_t* quad, __m256 w[4]) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(quad));
    const __m256i transpose =
        _mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 0, 4, 8, 12, 1, 5, 9,
                         13, 2, 6, 10, 14, 3, 7, 11, 15);
    const __m256i by_code = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(v, transpose),
                                                        _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    const __m256i codes_01 = f16_bits(_mm256_castsi256_si128(by_code));
    const __m256i codes_23 = f16_bits(_mm256_extracti128_si256(by_code, 1));
    w[0] = _mm256_cvtph_ps(_mm256_castsi256_si128(codes_01));
    w[1] = _mm256_cvtph_ps(_mm256_extracti128_si256(codes_01, 1));
    w[2] = _mm256_cvtph_ps(_mm256_castsi256_si128(codes_23));
    w[3] = _mm256_cvtph_ps(_mm256_extracti128_si256(codes_23, 1));
  }
};

// Whether a group block takes the fp16 route: a row's scale carries the flag.
inline bool needs_f16(const uint8_t* gb) {
  return _mm256_movemask_ps(_mm256_loadu_ps(reinterpret_cast<const float*>(gb))) != 0;
}

// The eight rows' scales (their magnitudes; the sign is the flag) times `factor`.
inline __m256 row_scales(const uint8_t* gb, float factor) {
  const __m256 all = _mm256_loadu_ps(reinterpret_cast<const float*>(gb));
  return _mm256_mul_ps(_mm256_and_ps(all, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff))),
                       _mm256_set1_ps(factor));
}

// Lane r of sums into out[r], for the group's valid rows.
inline void store_lanes(__m256 sums, int valid, float* out) {
  alignas(32) float lanes[kRows];
  _mm256_store_ps(lanes, sums);
  for (int r = 0; r < valid; ++r) out[r] = lanes[r];
}

// The four vectors' lanes summed per row into out[r].
inline void store_row_sums(const __m256 acc[4], int valid, float* out) {
  store_lanes(_mm256_add_ps(_mm256_add_ps(acc[0], acc[1]), _mm256_add_ps(acc[2], acc[3])), valid,
              out);
}

// The GEMV's activation row for the shifts: times 2^e, its largest magnitude under 2^62 (e at
// most 126), in a buffer of the calling thread, with the factor that then scales the sums
// (2^(120 - e)). x is null where a value is not finite. Every chunk of row groups makes its own
// (fp8_linear.cc), so the two passes over the row are vectorized too.
struct ShiftedRow {
  const float* x;
  float sum_factor;
};

ShiftedRow shift_activations(const float* x, int64_t k) {
  const __m256 sign = _mm256_set1_ps(-0.0f);
  const __m256 finite_limit = _mm256_set1_ps(std::numeric_limits<float>::max());
  __m256 largest = _mm256_setzero_ps(), not_finite = _mm256_setzero_ps();
  for (int64_t j = 0; j < k; j += 8) {  // k: whole blocks
    const __m256 magnitude = _mm256_andnot_ps(sign, _mm256_loadu_ps(x + j));
    not_finite = _mm256_or_ps(not_finite, _mm256_cmp_ps(magnitude, finite_limit, _CMP_NLE_UQ));
    largest = _mm256_max_ps(largest, magnitude);
  }
  if (_mm256_movemask_ps(not_finite) != 0) return {nullptr, 0};
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, largest);
  int exponent;
  std::frexp(*std::max_element(lanes, lanes + 8), &exponent);  // largest < 2^exponent
  const int shift = std::clamp(62 - exponent, 0, 126);
  thread_local std::vector<float> buffer;
  buffer.resize(static_cast<size_t>(k));
  const __m256 factor = _mm256_set1_ps(std::ldexp(1.0f, shift));
  for (int64_t j = 0; j < k; j += 8) {
    _mm256_storeu_ps(buffer.data() + j, _mm256_mul_ps(_mm256_loadu_ps(x + j), factor));
  }
  return {buffer.data(), std::ldexp(1.0f, 120 - shift)};
}

// The GEMV's weights are prefetched ahead of the widening, which is compute enough that the
// hardware prefetcher alone leaves DRAM bandwidth unused.
constexpr int kPrefetchBytes = 4096;

// One block of the GEMV (one activation row): its raw sums, times the scales and sum_factor,
// into total. Two quads per step into two sets of sums: consecutive FMAs
// into one register need not wait on each other while the weights stream.
template <typename Widener>
inline void row_block(const float* xb, const uint8_t* gb, float sum_factor, __m256 total[4]) {
  const uint8_t* quads = gb + kFp8GroupScaleBytes;
  __m256 acc[2][4];
#pragma GCC unroll 8
  for (int p = 0; p < 4; ++p) acc[0][p] = acc[1][p] = _mm256_setzero_ps();
  for (int t = 0; t < kQuads; t += 2) {
    _mm_prefetch(reinterpret_cast<const char*>(quads) + 32 * t + kPrefetchBytes, _MM_HINT_T0);
#pragma GCC unroll 2
    for (int s = 0; s < 2; ++s) {
      __m256 w[4];
      Widener::widen(quads + 32 * (t + s), w);
#pragma GCC unroll 8
      for (int p = 0; p < 4; ++p) {
        const __m256 xv = _mm256_broadcast_ss(xb + 4 * (t + s) + p);
        acc[s][p] = _mm256_fmadd_ps(w[p], xv, acc[s][p]);
      }
    }
  }
  const __m256 scale = row_scales(gb, sum_factor);
#pragma GCC unroll 8
  for (int p = 0; p < 4; ++p) {
    total[p] = _mm256_fmadd_ps(_mm256_add_ps(acc[0][p], acc[1][p]), scale, total[p]);
  }
}
void dot_row(const float* x, ShiftedRow shifted, int64_t k, const uint8_t* group, int valid,
             float* c) {
  __m256 total[4];
#pragma GCC unroll 8
  for (int p = 0; p < 4; ++p) total[p] = _mm256_setzero_ps();
  for (int64_t b = 0; b < k / kFp8Block; ++b) {
    const uint8_t* gb = group + b * kFp8GroupBlockBytes;
    if (shifted.x == nullptr || needs_f16(gb)) {
      row_block<F16Widener>(x + b * kFp8Block, gb, F16Widener::kScaleFactor, total);
    } else {
      row_block<ShiftWidener>(shifted.x + b * kFp8Block, gb, shifted.sum_factor, total);
    }
  }
  store_row_sums(total, valid, c);
}

// One block of MR activation rows: the widened weights, scaled, serve all of them.
template <int MR, typename Widener>
inline void rows_block(const float* x, int64_t k, int64_t b, const uint8_t* gb,
                       __m256 (&acc)[MR][4]) {
  const uint8_t* quads = gb + kFp8GroupScaleBytes;
  const __m256 scale = row_scales(gb, Widener::kScaleFactor);
  for (int t = 0; t < kQuads; ++t) {
    __m256 w[4];
    Widener::widen(quads + 32 * t, w);
#pragma GCC unroll 8
    for (int p = 0; p < 4; ++p) {
      const __m256 scaled = _mm256_mul_ps(w[p], scale);
#pragma GCC unroll 8
      for (int i = 0; i < MR; ++i) {
        const __m256 xv = _mm256_broadcast_ss(x + i * k + b * kFp8Block + 4 * t + p);
        acc[i][p] = _mm256_fmadd_ps(scaled, xv, acc[i][p]);
      }
    }
  }
}

template <int MR>
void dot_group(const float* x, int64_t k, const uint8_t* group, int valid, float* c, int64_t ldc) {
  __m256 acc[MR][4];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 8
    for (int p = 0; p < 4; ++p) acc[i][p] = _mm256_setzero_ps();
  }
  for (int64_t b = 0; b < k / kFp8Block; ++b) {
    const uint8_t* gb = group + b * kFp8GroupBlockBytes;
    if (needs_f16(gb)) {
      rows_block<MR, F16Widener>(x, k, b, gb, acc);
    } else {
      rows_block<MR, ShiftWidener>(x, k, b, gb, acc);
    }
  }
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) store_row_sums(acc[i], valid, c + i * ldc);
}

// Many activation rows: each block of a group is widened once, times its scales, into 4 KiB
// (wb[4t + p] holding the rows' code 4t + p), and tiles of rows run against it, two sums per
// row so that each sum's FMAs need not wait on the last.
constexpr int kTileRows = 6;
constexpr int64_t kWideRows = 64;

template <typename Widener>
inline void widen_block(const uint8_t* gb, __m256* wb) {
  const __m256 scale = row_scales(gb, Widener::kScaleFactor);
  for (int t = 0; t < kQuads; ++t) {
    __m256 w[4];
    Widener::widen(gb + kFp8GroupScaleBytes + 32 * t, w);
#pragma GCC unroll 8
    for (int p = 0; p < 4; ++p) wb[4 * t + p] = _mm256_mul_ps(w[p], scale);
  }
}

// Activation rows [0, MR) of a tile (xb: row 0 at the block's first k) against a widened block,
// into totals.
template <int MR>
void tile_against_block(const __m256* wb, const float* xb, int64_t k, __m256* totals) {
  __m256 acc[MR][2];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) {
    acc[i][0] = totals[i];
    acc[i][1] = _mm256_setzero_ps();
  }
  for (int j = 0; j < kFp8Block; j += 2) {
#pragma GCC unroll 2
    for (int h = 0; h < 2; ++h) {
      const __m256 w = wb[j + h];
#pragma GCC unroll 8
      for (int i = 0; i < MR; ++i) {
        acc[i][h] = _mm256_fmadd_ps(w, _mm256_broadcast_ss(xb + i * k + j + h), acc[i][h]);
      }
    }
  }
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) totals[i] = _mm256_add_ps(acc[i][0], acc[i][1]);
}

template <int MR>
void tile_rows(const __m256* wb, const float* xb, int64_t k, __m256* totals, int64_t rows) {
  if constexpr (MR > 1) {
    if (rows < MR) return tile_rows<MR - 1>(wb, xb, k, totals, rows);
  }
  tile_against_block<MR>(wb, xb, k, totals);
}

void dot_group_widened(const float* x, int64_t m, int64_t k, const uint8_t* group, int valid,
                       float* c, int64_t ldc) {
  alignas(32) __m256 wb[kFp8Block];
  alignas(32) __m256 totals[kWideRows];
  for (int64_t i0 = 0; i0 < m; i0 += kWideRows) {
    const int64_t rows = std::min(kWideRows, m - i0);
    for (int64_t i = 0; i < rows; ++i) totals[i] = _mm256_setzero_ps();
    for (int64_t b = 0; b < k / kFp8Block; ++b) {
      const uint8_t* gb = group + b * kFp8GroupBlockBytes;
      if (needs_f16(gb)) {
        widen_block<F16Widener>(gb, wb);
      } else {
        widen_block<ShiftWidener>(gb, wb);
      }
      for (int64_t i = 0; i < rows; i += kTileRows) {
        tile_rows<kTileRows>(wb, x + (i0 + i) * k + b * kFp8Block, k, totals + i,
                             std::min<int64_t>(kTileRows, rows - i));
      }
    }
    for (int64_t i = 0; i < rows; ++i) store_lanes(totals[i], valid, c + (i0 + i) * ldc);
  }
}

// From this many activation rows the blocks are widened once (dot_group_widened).
constexpr int64_t kWidenedFromRows = 4;

void dot_groups(const float* x, int64_t m, int64_t k, const uint8_t* w, int64_t groups,
                int64_t rows, float* c, int64_t ldc) {
  if (m >= kWidenedFromRows) {
    const int64_t group_bytes = fp8_group_bytes(k);
    for (int64_t g = 0; g < groups; ++g) {
      const int valid = static_cast<int>(std::min<int64_t>(kRows, rows - g * kRows));
      dot_group_widened(x, m, k, w + g * group_bytes, valid, c + g * kRows, ldc);
    }
    return;
  }
  const ShiftedRow last = m % 2 == 1 ? shift_activations(x + (m - 1) * k, k) : ShiftedRow{};
  for_row_groups_in_pairs(
      x, m, k, w, groups, rows, c, ldc,
      [&](const float* xi, const uint8_t* group, int valid, float* ci) {
        dot_group<2>(xi, k, group, valid, ci, ldc);
      },
      [&](const float* xi, const uint8_t* group, int valid, float* ci) {
        dot_row(xi, last, k, group, valid, ci);
      });
}

constexpr Fp8Kernels kAvx2Fp8Kernels = {&dot_groups};

}  // namespace

const Fp8Kernels& avx2_fp8_kernels() { return kAvx2Fp8Kernels; }

}  // namespace infergate::detail
#else
namespace infergate::detail {
const Fp8Kernels& avx2_fp8_kernels() { return generic_fp8_kernels(); }
}  // namespace infergate::detail
#endif
