// AVX-512 kernels of fp8 `linear` (compiled with the AVX-512 flags; only called after
// cpu_features.cc saw AVX-512 at run time). One 256-bit load is a quad of eight rows (four k
// each, fp8_layout.h); it widens to two vectors of sixteen fp32 (rows 0-3 and 4-7, lane 4r + u)
// that multiply four activations broadcast to every quad of lanes. Each block's sums are scaled
// once, by the rows' scales spread over their four lanes.
#include "kernels/cpu/fp8_kernels.h"

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__)
#include <immintrin.h>

#include <algorithm>

#include "kernels/cpu/fp8_e4m3.h"
#include "kernels/cpu/fp8_layout.h"

namespace infergate::detail {

namespace {

constexpr int kRows = static_cast<int>(kFp8GroupRows);
constexpr int kQuads = static_cast<int>(kFp8Block / 4);
constexpr int kMaxMr = 6;  // activation rows per pass: 4 * 6 accumulators of 32 registers

// 16 e4m3 codes as fp16 bits of value / 256: sign-extended to 16 bits, the sign lands in bits
// 15 and 14 after the shift by 7; clearing bit 14 leaves fp8_e4m3_as_f16_bits.
inline __m512 widen16(const uint8_t* codes) {
  const __m256i h = _mm256_slli_epi16(
      _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(codes))), 7);
  return _mm512_cvtph_ps(_mm256_and_si256(h, _mm256_set1_epi16(static_cast<short>(0xBF80))));
}

// The eight rows' scales (times 256, the widening's factor) spread to lanes 4r + u: rows 0-3
// in lo, 4-7 in hi.
inline void spread_scales(const uint8_t* gb, __m512& lo, __m512& hi) {
  const __m512 s = _mm512_castps256_ps512(_mm256_mul_ps(
      _mm256_loadu_ps(reinterpret_cast<const float*>(gb)), _mm256_set1_ps(kFp8AsF16Factor)));
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

// MR activation rows against one group; U accumulators per row and half so that U quads' FMAs
// are in flight at once (one FMA's latency is several quads' work when MR is small).
template <int MR, int U>
void dot_group(const float* x, int64_t k, const uint8_t* group, int valid, float* c, int64_t ldc) {
  __m512 total[MR][2];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) total[i][0] = total[i][1] = _mm512_setzero_ps();
  const int64_t blocks = k / kFp8Block;
  for (int64_t b = 0; b < blocks; ++b) {
    const uint8_t* gb = group + b * kFp8GroupBlockBytes;
    const uint8_t* quads = gb + kFp8GroupScaleBytes;
    const float* xb = x + b * kFp8Block;
    __m512 acc[MR][2][U];
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 8
      for (int u = 0; u < U; ++u) acc[i][0][u] = acc[i][1][u] = _mm512_setzero_ps();
    }
    for (int t = 0; t < kQuads; t += U) {
#pragma GCC unroll 8
      for (int u = 0; u < U; ++u) {
        const __m512 w0 = widen16(quads + 32 * (t + u));
        const __m512 w1 = widen16(quads + 32 * (t + u) + 16);
#pragma GCC unroll 8
        for (int i = 0; i < MR; ++i) {
          const __m512 xv = _mm512_broadcast_f32x4(_mm_loadu_ps(xb + i * k + 4 * (t + u)));
          acc[i][0][u] = _mm512_fmadd_ps(w0, xv, acc[i][0][u]);
          acc[i][1][u] = _mm512_fmadd_ps(w1, xv, acc[i][1][u]);
        }
      }
    }
    __m512 s_lo, s_hi;
    spread_scales(gb, s_lo, s_hi);
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 8
      for (int u = 1; u < U; ++u) {
        acc[i][0][0] = _mm512_add_ps(acc[i][0][0], acc[i][0][u]);
        acc[i][1][0] = _mm512_add_ps(acc[i][1][0], acc[i][1][u]);
      }
      total[i][0] = _mm512_fmadd_ps(acc[i][0][0], s_lo, total[i][0]);
      total[i][1] = _mm512_fmadd_ps(acc[i][1][0], s_hi, total[i][1]);
    }
  }
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) store_row_sums(total[i][0], total[i][1], valid, c + i * ldc);
}

void dot_groups(const float* x, int64_t m, int64_t k, const uint8_t* w, int64_t groups,
                int64_t rows, float* c, int64_t ldc) {
  const int64_t group_bytes = fp8_group_bytes(k);
  for (int64_t g = 0; g < groups; ++g) {
    const int valid = static_cast<int>(std::min<int64_t>(kRows, rows - g * kRows));
    const uint8_t* group = w + g * group_bytes;
    for (int64_t i = 0; i < m; i += kMaxMr) {
      const float* xi = x + i * k;
      float* ci = c + i * ldc + g * kRows;
      switch (std::min<int64_t>(kMaxMr, m - i)) {
        case 1:
          dot_group<1, 4>(xi, k, group, valid, ci, ldc);
          break;
        case 2:
          dot_group<2, 2>(xi, k, group, valid, ci, ldc);
          break;
        case 3:
          dot_group<3, 2>(xi, k, group, valid, ci, ldc);
          break;
        case 4:
          dot_group<4, 1>(xi, k, group, valid, ci, ldc);
          break;
        case 5:
          dot_group<5, 1>(xi, k, group, valid, ci, ldc);
          break;
        default:
          dot_group<6, 1>(xi, k, group, valid, ci, ldc);
          break;
      }
    }
  }
}

constexpr Fp8Kernels kAvx512Fp8Kernels = {&dot_groups};

}  // namespace

const Fp8Kernels& avx512_fp8_kernels() { return kAvx512Fp8Kernels; }

}  // namespace infergate::detail
#else
namespace infergate::detail {
const Fp8Kernels& avx512_fp8_kernels() { return avx2_fp8_kernels(); }
}  // namespace infergate::detail
#endif
