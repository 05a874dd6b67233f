// AVX2 kernels of fp8 `linear` (compiled with -mavx2 -mfma -mf16c). A 256-bit load is a quad of
// eight rows (four k each, fp8_layout.h); each 16-byte half widens to two vectors of eight fp32
// (a row pair, lane 4r + u), scaled at once by the rows' scales, then multiplied by four
// activations broadcast to both quads of lanes. Sixteen registers hold two activation rows'
// accumulators.
#include "kernels/cpu/fp8_kernels.h"

#if defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#include <immintrin.h>

#include <algorithm>

#include "kernels/cpu/fp8_e4m3.h"
#include "kernels/cpu/fp8_layout.h"

namespace infergate::detail {

namespace {

constexpr int kRows = static_cast<int>(kFp8GroupRows);
constexpr int kQuads = static_cast<int>(kFp8Block / 4);
constexpr int kMaxMr = 2;

// 16 e4m3 codes as fp16 bits of value / 256 (fp8_avx512.cc explains the shift and mask).
inline __m256i widen_to_f16(__m128i codes) {
  const __m256i h = _mm256_slli_epi16(_mm256_cvtepi8_epi16(codes), 7);
  return _mm256_and_si256(h, _mm256_set1_epi16(static_cast<short>(0xBF80)));
}

// The eight rows' scales (times 256) spread to lanes 4r + u of four row-pair vectors.
inline void spread_scales(const uint8_t* gb, __m256 s[4]) {
  const __m256 all = _mm256_mul_ps(_mm256_loadu_ps(reinterpret_cast<const float*>(gb)),
                                   _mm256_set1_ps(kFp8AsF16Factor));
  for (int p = 0; p < 4; ++p) {
    s[p] = _mm256_permutevar8x32_ps(all, _mm256_setr_epi32(2 * p, 2 * p, 2 * p, 2 * p, 2 * p + 1,
                                                           2 * p + 1, 2 * p + 1, 2 * p + 1));
  }
}

// Lanes 4r + u of four row-pair vectors summed over u into out[r].
inline void store_row_sums(const __m256 acc[4], int valid, float* out) {
  alignas(32) float lanes[32];
#pragma GCC unroll 8
  for (int p = 0; p < 4; ++p) _mm256_store_ps(lanes + 8 * p, acc[p]);
  for (int r = 0; r < valid; ++r) {
    const float* q = lanes + 4 * r;
    out[r] = (q[0] + q[1]) + (q[2] + q[3]);
  }
}

// The GEMV (one activation row): each block's raw sums are scaled once at its end, and the
// weights are prefetched ahead of the widening, which is compute enough that the hardware
// prefetcher alone leaves DRAM bandwidth unused.
void dot_row(const float* x, int64_t k, const uint8_t* group, int valid, float* c) {
  constexpr int kPrefetchBytes = 4096;
  __m256 total[4];
#pragma GCC unroll 8
  for (int p = 0; p < 4; ++p) total[p] = _mm256_setzero_ps();
  for (int64_t b = 0; b < k / kFp8Block; ++b) {
    const uint8_t* gb = group + b * kFp8GroupBlockBytes;
    const uint8_t* quads = gb + kFp8GroupScaleBytes;
    __m256 acc[4];
#pragma GCC unroll 8
    for (int p = 0; p < 4; ++p) acc[p] = _mm256_setzero_ps();
    for (int t = 0; t < kQuads; ++t) {
      _mm_prefetch(reinterpret_cast<const char*>(quads) + 32 * t + kPrefetchBytes, _MM_HINT_T0);
      const __m256 xv =
          _mm256_broadcast_ps(reinterpret_cast<const __m128*>(x + b * kFp8Block + 4 * t));
#pragma GCC unroll 8
      for (int half = 0; half < 2; ++half) {
        const __m256i h = widen_to_f16(
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(quads + 32 * t + 16 * half)));
        acc[2 * half] =
            _mm256_fmadd_ps(_mm256_cvtph_ps(_mm256_castsi256_si128(h)), xv, acc[2 * half]);
        acc[2 * half + 1] =
            _mm256_fmadd_ps(_mm256_cvtph_ps(_mm256_extracti128_si256(h, 1)), xv, acc[2 * half + 1]);
      }
    }
    __m256 scale[4];
    spread_scales(gb, scale);
#pragma GCC unroll 8
    for (int p = 0; p < 4; ++p) total[p] = _mm256_fmadd_ps(acc[p], scale[p], total[p]);
  }
  store_row_sums(total, valid, c);
}

// Several activation rows: the widened weights, scaled, serve MR rows each.
template <int MR>
void dot_group(const float* x, int64_t k, const uint8_t* group, int valid, float* c, int64_t ldc) {
  __m256 acc[MR][4];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 8
    for (int p = 0; p < 4; ++p) acc[i][p] = _mm256_setzero_ps();
  }
  const int64_t blocks = k / kFp8Block;
  for (int64_t b = 0; b < blocks; ++b) {
    const uint8_t* gb = group + b * kFp8GroupBlockBytes;
    const uint8_t* quads = gb + kFp8GroupScaleBytes;
    __m256 scale[4];
    spread_scales(gb, scale);
    for (int t = 0; t < kQuads; ++t) {
      __m256 xv[MR];
#pragma GCC unroll 8
      for (int i = 0; i < MR; ++i) {
        xv[i] =
            _mm256_broadcast_ps(reinterpret_cast<const __m128*>(x + i * k + b * kFp8Block + 4 * t));
      }
#pragma GCC unroll 8
      for (int half = 0; half < 2; ++half) {
        const __m256i h = widen_to_f16(
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(quads + 32 * t + 16 * half)));
        const __m256 w0 =
            _mm256_mul_ps(_mm256_cvtph_ps(_mm256_castsi256_si128(h)), scale[2 * half]);
        const __m256 w1 =
            _mm256_mul_ps(_mm256_cvtph_ps(_mm256_extracti128_si256(h, 1)), scale[2 * half + 1]);
#pragma GCC unroll 8
        for (int i = 0; i < MR; ++i) {
          acc[i][2 * half] = _mm256_fmadd_ps(w0, xv[i], acc[i][2 * half]);
          acc[i][2 * half + 1] = _mm256_fmadd_ps(w1, xv[i], acc[i][2 * half + 1]);
        }
      }
    }
  }
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) store_row_sums(acc[i], valid, c + i * ldc);
}

void dot_groups(const float* x, int64_t m, int64_t k, const uint8_t* w, int64_t groups,
                int64_t rows, float* c, int64_t ldc) {
  const int64_t group_bytes = fp8_group_bytes(k);
  for (int64_t g = 0; g < groups; ++g) {
    const int valid = static_cast<int>(std::min<int64_t>(kRows, rows - g * kRows));
    const uint8_t* group = w + g * group_bytes;
    for (int64_t i = 0; i < m; i += kMaxMr) {
      float* ci = c + i * ldc + g * kRows;
      if (m - i >= 2) {
        dot_group<2>(x + i * k, k, group, valid, ci, ldc);
      } else {
        dot_row(x + i * k, k, group, valid, ci);
      }
    }
  }
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
