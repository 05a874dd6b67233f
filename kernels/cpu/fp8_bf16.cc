// AVX-512 BF16 kernels of fp8 `linear` (compiled with the VBMI flags plus -mavx512bf16; only
// called after cpu_features.cc saw both: Sapphire Rapids, Zen 4 and later). Every e4m3 value is
// a bf16 exactly (fp8_byte_tables.h gives the words), so vdpbf16ps multiplies 32 of them by 32
// activations at once, where the fp32 route (fp8_vbmi.cc) unpacks each word to an fp32 and
// needs an FMA per 16: the GEMV is 1.4-1.5x faster on Zen 5 and streams at DRAM speed.
//
// The trade-off: the activations are rounded to bf16 (round to nearest even, a relative error
// of at most 2^-9 per activation), as llama.cpp's bf16 kernels and every integer format here
// (int8 activations per block) do; the products and sums are exact and fp32. The error is a
// small fraction of e4m3's own (2^-4 per weight): docs/quantization.md, "FP8 against Q8_0".
#include "kernels/cpu/fp8_kernels.h"

#if defined(__AVX512VBMI__) && defined(__AVX512BF16__)
#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "kernels/cpu/fp8_byte_tables.h"
#include "kernels/cpu/fp8_layout.h"

namespace infergate::detail {

namespace {

constexpr int kRows = static_cast<int>(kFp8GroupRows);
constexpr int kPairs = static_cast<int>(kFp8Block / 8);  // 64-byte pairs of quads per block
constexpr int kMaxMr = 3;     // activation rows that stream the weights; more widen each block
constexpr int kTileRows = 6;  // rows per tile of the widened path: 12 accumulators
constexpr int kPrefetchBytes = 4096;  // the GEMV fetches ahead of its widening, as fp8_vbmi.cc

// x's [m, k] activations as bf16 (round to nearest even), in a buffer of the calling thread.
const uint16_t* bf16_activations(const float* x, int64_t count) {
  thread_local std::vector<uint16_t> buffer;
  buffer.resize(static_cast<size_t>(count));
  int64_t i = 0;
  for (; i + 16 <= count; i += 16) {
    const __m256bh h = _mm512_cvtneps_pbh(_mm512_loadu_ps(x + i));
    std::memcpy(buffer.data() + i, &h, 32);
  }
  if (i < count) {
    const __mmask16 tail = static_cast<__mmask16>((1u << (count - i)) - 1);
    const __m256bh h = _mm512_cvtneps_pbh(_mm512_maskz_loadu_ps(tail, x + i));
    std::memcpy(buffer.data() + i, &h, static_cast<size_t>(2 * (count - i)));
  }
  return buffer.data();
}

// Four consecutive bf16 activations in every 64-bit lane: the pairs (x0, x1), (x2, x3) that
// vdpbf16ps multiplies with a row's words 0-1 and 2-3.
inline __m512bh four_activations(const uint16_t* x) {
  int64_t bits;
  std::memcpy(&bits, x, 8);
  return reinterpret_cast<__m512bh>(_mm512_set1_epi64(bits));
}

inline __m512 dot(__m512 acc, __m512i words, const uint16_t* x) {
  return _mm512_dpbf16_ps(acc, reinterpret_cast<__m512bh>(words), four_activations(x));
}

// The sums' lanes: in 128-bit lane j, row j's two pair sums, then row j + 4's. The scales
// (their magnitudes: the sign is a flag, fp8_layout.h) spread to match.
inline __m512 spread_scales(const uint8_t* gb) {
  const __m256 magnitude = _mm256_and_ps(_mm256_loadu_ps(reinterpret_cast<const float*>(gb)),
                                         _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff)));
  return _mm512_permutexvar_ps(_mm512_setr_epi32(0, 0, 4, 4, 1, 1, 5, 5, 2, 2, 6, 6, 3, 3, 7, 7),
                               _mm512_castps256_ps512(magnitude));
}

inline void store_row_sums(__m512 total, int valid, float* out) {
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, total);
  for (int r = 0; r < valid; ++r) {
    const float* p = lanes + 4 * (r % 4) + 2 * (r / 4);
    out[r] = p[0] + p[1];
  }
}

// MR activation rows streaming one group: each pair of quads is widened once and serves them
// all; a GEMV keeps two pairs in flight so consecutive vdpbf16ps need not wait on each other.
template <int MR>
void dot_group(const Fp8WordTables& t, const uint16_t* x, int64_t k, const uint8_t* group,
               int valid, float* c, int64_t ldc) {
  constexpr int U = MR == 1 ? 2 : 1;
  __m512 total[MR];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) total[i] = _mm512_setzero_ps();
  for (int64_t b = 0; b < k / kFp8Block; ++b) {
    const uint8_t* gb = group + b * kFp8GroupBlockBytes;
    const uint8_t* quads = gb + kFp8GroupScaleBytes;
    const uint16_t* xb = x + b * kFp8Block;
    __m512 acc[MR][2 * U];
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 8
      for (int j = 0; j < 2 * U; ++j) acc[i][j] = _mm512_setzero_ps();
    }
    for (int p = 0; p < kPairs; p += U) {
#pragma GCC unroll 8
      for (int u = 0; u < U; ++u) {
        if constexpr (MR == 1) {
          _mm_prefetch(reinterpret_cast<const char*>(quads) + 64 * (p + u) + kPrefetchBytes,
                       _MM_HINT_T0);
        }
        __m512i quad0, quad1;
        t.words(quads + 64 * (p + u), quad0, quad1);
#pragma GCC unroll 8
        for (int i = 0; i < MR; ++i) {
          const uint16_t* xq = xb + i * k + 8 * (p + u);
          acc[i][2 * u] = dot(acc[i][2 * u], quad0, xq);
          acc[i][2 * u + 1] = dot(acc[i][2 * u + 1], quad1, xq + 4);
        }
      }
    }
    const __m512 scale = spread_scales(gb);
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
      __m512 sum = _mm512_add_ps(acc[i][0], acc[i][1]);
#pragma GCC unroll 8
      for (int j = 2; j < 2 * U; ++j) sum = _mm512_add_ps(sum, acc[i][j]);
      total[i] = _mm512_fmadd_ps(sum, scale, total[i]);
    }
  }
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) store_row_sums(total[i], valid, c + i * ldc);
}

// Activation rows [0, MR) of a tile against one block's words (wb: kPairs x 2), scaled into
// totals.
template <int MR>
void tile_against_block(const __m512i* wb, const uint16_t* xb, int64_t k, __m512 scale,
                        __m512* totals) {
  __m512 acc[MR][2];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) acc[i][0] = acc[i][1] = _mm512_setzero_ps();
  for (int p = 0; p < kPairs; ++p) {
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
      const uint16_t* xq = xb + i * k + 8 * p;
      acc[i][0] = dot(acc[i][0], wb[2 * p], xq);
      acc[i][1] = dot(acc[i][1], wb[2 * p + 1], xq + 4);
    }
  }
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) {
    totals[i] = _mm512_fmadd_ps(_mm512_add_ps(acc[i][0], acc[i][1]), scale, totals[i]);
  }
}

template <int MR>
void tile_rows(const __m512i* wb, const uint16_t* xb, int64_t k, __m512 scale, __m512* totals,
               int64_t rows) {
  if constexpr (MR > 1) {
    if (rows < MR) return tile_rows<MR - 1>(wb, xb, k, scale, totals, rows);
  }
  tile_against_block<MR>(wb, xb, k, scale, totals);
}

// Many activation rows against one group: each block's words (2 KiB, in L1) are made once and
// every row runs against them.
void dot_group_widened(const Fp8WordTables& t, const uint16_t* x, int64_t m, int64_t k,
                       const uint8_t* group, int valid, float* c, int64_t ldc) {
  constexpr int64_t kWideRows = 64;
  alignas(64) __m512i wb[2 * kPairs];
  alignas(64) __m512 totals[kWideRows];
  for (int64_t i0 = 0; i0 < m; i0 += kWideRows) {
    const int64_t rows = std::min(kWideRows, m - i0);
    for (int64_t i = 0; i < rows; ++i) totals[i] = _mm512_setzero_ps();
    for (int64_t b = 0; b < k / kFp8Block; ++b) {
      const uint8_t* gb = group + b * kFp8GroupBlockBytes;
      for (int p = 0; p < kPairs; ++p) {
        t.words(gb + kFp8GroupScaleBytes + 64 * p, wb[2 * p], wb[2 * p + 1]);
      }
      const __m512 scale = spread_scales(gb);
      for (int64_t i = 0; i < rows; i += kTileRows) {
        tile_rows<kTileRows>(wb, x + (i0 + i) * k + b * kFp8Block, k, scale, totals + i,
                             std::min<int64_t>(kTileRows, rows - i));
      }
    }
    for (int64_t i = 0; i < rows; ++i) store_row_sums(totals[i], valid, c + (i0 + i) * ldc);
  }
}

void dot_groups(const float* x, int64_t m, int64_t k, const uint8_t* w, int64_t groups,
                int64_t rows, float* c, int64_t ldc) {
  if (m <= 0) return;
  const Fp8WordTables t(fp8_byte_tables());
  const uint16_t* xh = bf16_activations(x, m * k);
  const int64_t group_bytes = fp8_group_bytes(k);
  for (int64_t g = 0; g < groups; ++g) {
    const int valid = static_cast<int>(std::min<int64_t>(kRows, rows - g * kRows));
    const uint8_t* group = w + g * group_bytes;
    float* cg = c + g * kRows;
    if (m > kMaxMr) {
      dot_group_widened(t, xh, m, k, group, valid, cg, ldc);
    } else if (m == 3) {
      dot_group<3>(t, xh, k, group, valid, cg, ldc);
    } else if (m == 2) {
      dot_group<2>(t, xh, k, group, valid, cg, ldc);
    } else {
      dot_group<1>(t, xh, k, group, valid, cg, ldc);
    }
  }
}

constexpr Fp8Kernels kBf16Fp8Kernels = {&dot_groups, /*bf16_activations=*/true};

}  // namespace

const Fp8Kernels& bf16_fp8_kernels() { return kBf16Fp8Kernels; }

}  // namespace infergate::detail
#else
namespace infergate::detail {
const Fp8Kernels& bf16_fp8_kernels() { return vbmi_fp8_kernels(); }
}  // namespace infergate::detail
#endif
