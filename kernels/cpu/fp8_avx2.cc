// AVX2 kernels of fp8 `linear` (compiled with -mavx2 -mfma -mf16c). A 256-bit load is a quad of
// eight rows (four k each, fp8_layout.h); it widens to four vectors of eight fp32, each two rows'
// four k, which multiply four activations broadcast to both halves. Sixteen registers hold two
// activation rows' accumulators.
//
// Two widenings. The fp16 route (vcvtph2ps) takes every code. The nibble tables take every code
// whose exponent field is not zero, with no conversion: such a code's fp32 value has zero low 16
// bits, its top byte (the sign and the rebiased exponent's high 7 bits) is a function of the
// code's high nibble (one vpshufb), and its next byte is the low nibble shifted up by 4 (the
// exponent's low bit, then the mantissa); unpacks against zero place them. A group block goes
// through the tables unless a row's scale carries the flag of a zero or subnormal code
// (fp8_layout.h; about 4% of the trained model's blocks). Two vcvtph2ps per 16 weights bound the
// fp16 route; decode through the tables is 1.2x faster (docs/quantization.md, "FP8 against Q8_0").
#include "kernels/cpu/fp8_kernels.h"

#if defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#include <immintrin.h>

#include "kernels/cpu/fp8_e4m3.h"
#include "kernels/cpu/fp8_layout.h"

namespace infergate::detail {

namespace {

constexpr int kRows = static_cast<int>(kFp8GroupRows);
constexpr int kQuads = static_cast<int>(kFp8Block / 4);

// Both wideners give a quad of eight rows as four vectors, w[p] holding rows p (lanes 0-3) and
// p + 4 (lanes 4-7), times 1 / kFactor.

// Codes with a nonzero exponent field, by the nibble tables.
struct TableWidener {
  static constexpr float kFactor = 1.0f;
  // The fp32 top byte of a code whose high nibble is h = (sign, exponent bits 3-1): the sign,
  // then (exponent + 120) >> 1, which is (h & 7) + 60 for either exponent bit 0. In both lanes.
  __m256i top =
      _mm256_setr_epi8(60, 61, 62, 63, 64, 65, 66, 67, -68, -67, -66, -65, -64, -63, -62, -61, 60,
                       61, 62, 63, 64, 65, 66, 67, -68, -67, -66, -65, -64, -63, -62, -61);

  inline void widen(const uint8_t* quad, __m256 w[4]) const {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(quad));
    const __m256i high_byte =
        _mm256_shuffle_epi8(top, _mm256_and_si256(_mm256_srli_epi16(v, 4), _mm256_set1_epi8(0x0F)));
    const __m256i next_byte =
        _mm256_and_si256(_mm256_slli_epi16(v, 4), _mm256_set1_epi8(static_cast<char>(0xF0)));
    const __m256i rows_01_45 = _mm256_unpacklo_epi8(next_byte, high_byte);
    const __m256i rows_23_67 = _mm256_unpackhi_epi8(next_byte, high_byte);
    const __m256i zero = _mm256_setzero_si256();
    w[0] = _mm256_castsi256_ps(_mm256_unpacklo_epi16(zero, rows_01_45));
    w[1] = _mm256_castsi256_ps(_mm256_unpackhi_epi16(zero, rows_01_45));
    w[2] = _mm256_castsi256_ps(_mm256_unpacklo_epi16(zero, rows_23_67));
    w[3] = _mm256_castsi256_ps(_mm256_unpackhi_epi16(zero, rows_23_67));
  }
};

// Every code, through fp16 (value / 256: the sign to bit 15, the rest shifted up by 7;
// fp8_e4m3.h), then 128-bit halves swapped into the tables' row order.
struct F16Widener {
  static constexpr float kFactor = kFp8AsF16Factor;

  static inline __m256i f16_bits(const uint8_t* sixteen) {
    const __m128i codes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(sixteen));
    const __m256i h = _mm256_slli_epi16(_mm256_cvtepi8_epi16(codes), 7);
    return _mm256_and_si256(h, _mm256_set1_epi16(static_cast<short>(0xBF80)));
  }

  inline void widen(const uint8_t* quad, __m256 w[4]) const {
    const __m256i rows_0123 = f16_bits(quad), rows_4567 = f16_bits(quad + 16);
    const __m256 rows_01 = _mm256_cvtph_ps(_mm256_castsi256_si128(rows_0123));
    const __m256 rows_23 = _mm256_cvtph_ps(_mm256_extracti128_si256(rows_0123, 1));
    const __m256 rows_45 = _mm256_cvtph_ps(_mm256_castsi256_si128(rows_4567));
    const __m256 rows_67 = _mm256_cvtph_ps(_mm256_extracti128_si256(rows_4567, 1));
    w[0] = _mm256_permute2f128_ps(rows_01, rows_45, 0x20);
    w[1] = _mm256_permute2f128_ps(rows_01, rows_45, 0x31);
    w[2] = _mm256_permute2f128_ps(rows_23, rows_67, 0x20);
    w[3] = _mm256_permute2f128_ps(rows_23, rows_67, 0x31);
  }
};

// Whether a group block takes the fp16 route: a row's scale flags a zero or subnormal code.
inline bool needs_f16(const uint8_t* gb) {
  return _mm256_movemask_ps(_mm256_loadu_ps(reinterpret_cast<const float*>(gb))) != 0;
}

// The eight rows' scales (their magnitudes; the sign is the flag) times `factor`, spread to the
// wideners' lanes.
inline void spread_scales(const uint8_t* gb, float factor, __m256 s[4]) {
  const __m256 all =
      _mm256_mul_ps(_mm256_and_ps(_mm256_loadu_ps(reinterpret_cast<const float*>(gb)),
                                  _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff))),
                    _mm256_set1_ps(factor));
#pragma GCC unroll 8
  for (int p = 0; p < 4; ++p) {
    s[p] = _mm256_permutevar8x32_ps(all, _mm256_setr_epi32(p, p, p, p, p + 4, p + 4, p + 4, p + 4));
  }
}

// Lanes of the wideners' row order summed per row into out[r].
inline void store_row_sums(const __m256 acc[4], int valid, float* out) {
  alignas(32) float lanes[32];
#pragma GCC unroll 8
  for (int p = 0; p < 4; ++p) _mm256_store_ps(lanes + 8 * p, acc[p]);
  for (int r = 0; r < valid; ++r) {
    const float* q = lanes + 8 * (r % 4) + 4 * (r / 4);
    out[r] = (q[0] + q[1]) + (q[2] + q[3]);
  }
}

// The GEMV's weights are prefetched ahead of the widening, which is compute enough that the
// hardware prefetcher alone leaves DRAM bandwidth unused.
constexpr int kPrefetchBytes = 4096;

// One block of the GEMV (one activation row): its raw sums, scaled once, into total. Two quads
// per step into two sets of sums: consecutive FMAs into one register need not wait on each
// other while the weights stream.
template <typename Widener>
inline void row_block(const Widener& widener, const float* xb, const uint8_t* gb, __m256 total[4]) {
  const uint8_t* quads = gb + kFp8GroupScaleBytes;
  __m256 acc[2][4];
#pragma GCC unroll 8
  for (int p = 0; p < 4; ++p) acc[0][p] = acc[1][p] = _mm256_setzero_ps();
  for (int t = 0; t < kQuads; t += 2) {
    _mm_prefetch(reinterpret_cast<const char*>(quads) + 32 * t + kPrefetchBytes, _MM_HINT_T0);
#pragma GCC unroll 2
    for (int s = 0; s < 2; ++s) {
      const __m256 xv = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(xb + 4 * (t + s)));
      __m256 w[4];
      widener.widen(quads + 32 * (t + s), w);
#pragma GCC unroll 8
      for (int p = 0; p < 4; ++p) acc[s][p] = _mm256_fmadd_ps(w[p], xv, acc[s][p]);
    }
  }
  __m256 scale[4];
  spread_scales(gb, Widener::kFactor, scale);
#pragma GCC unroll 8
  for (int p = 0; p < 4; ++p) {
    total[p] = _mm256_fmadd_ps(_mm256_add_ps(acc[0][p], acc[1][p]), scale[p], total[p]);
  }
}

void dot_row(const float* x, int64_t k, const uint8_t* group, int valid, float* c) {
  const TableWidener tables;
  __m256 total[4];
#pragma GCC unroll 8
  for (int p = 0; p < 4; ++p) total[p] = _mm256_setzero_ps();
  for (int64_t b = 0; b < k / kFp8Block; ++b) {
    const uint8_t* gb = group + b * kFp8GroupBlockBytes;
    if (needs_f16(gb)) {
      row_block(F16Widener{}, x + b * kFp8Block, gb, total);
    } else {
      row_block(tables, x + b * kFp8Block, gb, total);
    }
  }
  store_row_sums(total, valid, c);
}

// One block of MR activation rows: the widened weights, scaled, serve all of them.
template <int MR, typename Widener>
inline void rows_block(const Widener& widener, const float* x, int64_t k, int64_t b,
                       const uint8_t* gb, __m256 (&acc)[MR][4]) {
  const uint8_t* quads = gb + kFp8GroupScaleBytes;
  __m256 scale[4];
  spread_scales(gb, Widener::kFactor, scale);
  for (int t = 0; t < kQuads; ++t) {
    __m256 xv[MR];
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
      xv[i] =
          _mm256_broadcast_ps(reinterpret_cast<const __m128*>(x + i * k + b * kFp8Block + 4 * t));
    }
    __m256 w[4];
    widener.widen(quads + 32 * t, w);
#pragma GCC unroll 8
    for (int p = 0; p < 4; ++p) {
      const __m256 scaled = _mm256_mul_ps(w[p], scale[p]);
#pragma GCC unroll 8
      for (int i = 0; i < MR; ++i) acc[i][p] = _mm256_fmadd_ps(scaled, xv[i], acc[i][p]);
    }
  }
}

template <int MR>
void dot_group(const float* x, int64_t k, const uint8_t* group, int valid, float* c, int64_t ldc) {
  const TableWidener tables;
  __m256 acc[MR][4];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 8
    for (int p = 0; p < 4; ++p) acc[i][p] = _mm256_setzero_ps();
  }
  for (int64_t b = 0; b < k / kFp8Block; ++b) {
    const uint8_t* gb = group + b * kFp8GroupBlockBytes;
    if (needs_f16(gb)) {
      rows_block<MR>(F16Widener{}, x, k, b, gb, acc);
    } else {
      rows_block<MR>(tables, x, k, b, gb, acc);
    }
  }
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) store_row_sums(acc[i], valid, c + i * ldc);
}

void dot_groups(const float* x, int64_t m, int64_t k, const uint8_t* w, int64_t groups,
                int64_t rows, float* c, int64_t ldc) {
  for_row_groups_in_pairs(
      x, m, k, w, groups, rows, c, ldc,
      [&](const float* xi, const uint8_t* group, int valid, float* ci) {
        dot_group<2>(xi, k, group, valid, ci, ldc);
      },
      [&](const float* xi, const uint8_t* group, int valid, float* ci) {
        dot_row(xi, k, group, valid, ci);
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
