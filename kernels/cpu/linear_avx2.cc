// AVX2 kernels of `linear` (compiled with -mavx2 -mfma -mf16c; chosen at run time on CPUs with
// AVX2 but without AVX-512). Weights are widened to fp32 in registers (F16C for f16, a shift or
// mask for bf16) and every product is an fp32 FMA, so results match fp32 math on the stored
// weights. With 16 vector registers the m > 1 micro-kernel covers half a 32-column panel at a
// time: 6 rows x 16 columns, 12 accumulators (the register blocking BLIS uses on Haswell/Zen).
#include "kernels/cpu/linear_portable_impl.h"  // pack_panel_f32: per-call packing

#if defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

#include "kernels/cpu/linear_gemv_rows_impl.h"

namespace infergate::detail {
namespace {
namespace avx2 {

inline float hsum(__m256 v) {
  const __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  const __m128 t = _mm_add_ps(s, _mm_movehl_ps(s, s));
  return _mm_cvtss_f32(_mm_add_ss(t, _mm_movehdup_ps(t)));
}

// Lanes [0, count) set: the mask of a partial 8-wide load or store.
inline __m256i lane_mask(int64_t count) {
  const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(int(count < 8 ? count : 8)), lanes);
}

// ---- widening loads of 8 weights --------------------------------------------------------------

inline __m256 load8(const float* p) { return _mm256_loadu_ps(p); }
inline __m256 load8(const uint16_t* p, DType dtype) {
  const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  if (dtype == DType::kF16) return _mm256_cvtph_ps(h);
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
}

// ---- GEMV over row-major weights (m = 1): the dot product of x and one row ------------------

struct RowDot {
  template <DType D>
  static float of(const float* x, const void* wr, int64_t k) {
    __m256 acc[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(),
                     _mm256_setzero_ps()};
    int64_t j = 0;
    for (; j + 32 <= k; j += 32) {
#pragma GCC unroll 4
      for (int u = 0; u < 4; ++u) {
        __m256 w;
        if constexpr (D == DType::kF32) {
          w = load8(static_cast<const float*>(wr) + j + 8 * u);
        } else {
          w = load8(static_cast<const uint16_t*>(wr) + j + 8 * u, D);
        }
        acc[u] = _mm256_fmadd_ps(w, _mm256_loadu_ps(x + j + 8 * u), acc[u]);
      }
    }
    float s = hsum(_mm256_add_ps(_mm256_add_ps(acc[0], acc[1]), _mm256_add_ps(acc[2], acc[3])));
    for (; j < k; ++j) {
      if constexpr (D == DType::kF32) {
        s += x[j] * static_cast<const float*>(wr)[j];
      } else if constexpr (D == DType::kF16) {
        s += x[j] * f16_to_f32(static_cast<const uint16_t*>(wr)[j]);
      } else {
        s += x[j] * widen_bf16(static_cast<const uint16_t*>(wr)[j]);
      }
    }
    return s;
  }
};

// ---- panel rows as fp32 -------------------------------------------------------------------

// Columns [8q, 8q + 8) of panel row t (f32 or f16 panels).
template <DType D>
inline __m256 panel8(const void* panel, int64_t t, int q) {
  if constexpr (D == DType::kF32) {
    return _mm256_loadu_ps(static_cast<const float*>(panel) + t * kPanelWidth + 8 * q);
  } else {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(
        static_cast<const uint16_t*>(panel) + t * kPanelWidth + 8 * q)));
  }
}

// bf16 panels keep k in pairs (linear_kernels.h): one 256-bit load of pair t2 holds columns
// [8q, 8q + 8) for k = 2 t2 (low halves: shift) and k = 2 t2 + 1 (high halves: mask).
inline __m256i pair8(const void* panel, int64_t t2, int q) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(static_cast<const uint16_t*>(panel) +
                                                             t2 * 2 * kPanelWidth + 16 * q));
}
inline __m256 even_k(__m256i v) { return _mm256_castsi256_ps(_mm256_slli_epi32(v, 16)); }
inline __m256 odd_k(__m256i v) {
  return _mm256_castsi256_ps(_mm256_and_si256(v, _mm256_set1_epi32(int(0xffff0000u))));
}

inline void store8(float* c, __m256 v, int valid, bool accumulate) {
  if (valid >= 8) {
    if (accumulate) v = _mm256_add_ps(v, _mm256_loadu_ps(c));
    _mm256_storeu_ps(c, v);
  } else if (valid > 0) {
    const __m256i m = lane_mask(valid);
    if (accumulate) v = _mm256_add_ps(v, _mm256_maskload_ps(c, m));
    _mm256_maskstore_ps(c, m, v);
  }
}

// ---- m = 1: stream the panel (bandwidth-bound), prefetching ahead --------------------------

// Bytes fetched ahead of the streaming m = 1 tile: 2 KiB, as the AVX-512 kernel found best.
constexpr int64_t kPrefetchBytes = 2048;

inline void prefetch_ahead(const void* panel, int64_t offset_bytes) {
  const char* p = static_cast<const char*>(panel) + offset_bytes + kPrefetchBytes;
  _mm_prefetch(p, _MM_HINT_T0);
  _mm_prefetch(p + 64, _MM_HINT_T0);
}

template <DType D>
void tile_m1(const float* a, const void* panel, int64_t kc, float* c, int ncols, bool accumulate) {
  __m256 acc[8];
  for (auto& v : acc) v = _mm256_setzero_ps();
  if constexpr (D == DType::kBF16) {
    for (int64_t t2 = 0; t2 < (kc + 1) / 2; ++t2) {  // an odd kc's partner is zero padding
      prefetch_ahead(panel, t2 * 4 * kPanelWidth);
      const __m256 ae = _mm256_set1_ps(a[2 * t2]);
      const __m256 ao = _mm256_set1_ps(2 * t2 + 1 < kc ? a[2 * t2 + 1] : 0.0f);
#pragma GCC unroll 4
      for (int q = 0; q < 4; ++q) {
        const __m256i v = pair8(panel, t2, q);
        acc[q] = _mm256_fmadd_ps(ae, even_k(v), acc[q]);
        acc[4 + q] = _mm256_fmadd_ps(ao, odd_k(v), acc[4 + q]);
      }
    }
  } else {
    constexpr int64_t kRowBytes = D == DType::kF32 ? 4 * kPanelWidth : 2 * kPanelWidth;
    int64_t t = 0;
    for (; t + 2 <= kc; t += 2) {
      prefetch_ahead(panel, t * kRowBytes);
#pragma GCC unroll 2
      for (int u = 0; u < 2; ++u) {
        const __m256 ai = _mm256_set1_ps(a[t + u]);
#pragma GCC unroll 4
        for (int q = 0; q < 4; ++q) {
          acc[4 * u + q] = _mm256_fmadd_ps(ai, panel8<D>(panel, t + u, q), acc[4 * u + q]);
        }
      }
    }
    for (; t < kc; ++t) {
      const __m256 ai = _mm256_set1_ps(a[t]);
#pragma GCC unroll 4
      for (int q = 0; q < 4; ++q) acc[q] = _mm256_fmadd_ps(ai, panel8<D>(panel, t, q), acc[q]);
    }
  }
  for (int q = 0; q < 4; ++q) {
    store8(c + 8 * q, _mm256_add_ps(acc[q], acc[4 + q]), ncols - 8 * q, accumulate);
  }
}

// ---- m > 1: MR rows x 16 columns (half a panel, half = 0 or 1) ------------------------------

constexpr int kMaxMr = 6;  // 12 accumulators + 2 panel vectors + 1 broadcast of 16 registers

template <int MR, DType D>
void tile(const float* a, int64_t lda, const void* panel, int64_t kc, float* c, int64_t ldc,
          int half, int ncols, bool accumulate) {
  __m256 acc0[MR], acc1[MR];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) acc0[i] = acc1[i] = _mm256_setzero_ps();
  const int q0 = 2 * half;
  if constexpr (D == DType::kBF16) {
    for (int64_t t2 = 0; t2 < kc / 2; ++t2) {
      // k even, then k odd: two panel vectors live at a time, as for f32.
      __m256 b0 = even_k(pair8(panel, t2, q0)), b1 = even_k(pair8(panel, t2, q0 + 1));
#pragma GCC unroll 8
      for (int i = 0; i < MR; ++i) {
        const __m256 ai = _mm256_broadcast_ss(a + i * lda + 2 * t2);
        acc0[i] = _mm256_fmadd_ps(ai, b0, acc0[i]);
        acc1[i] = _mm256_fmadd_ps(ai, b1, acc1[i]);
      }
      b0 = odd_k(pair8(panel, t2, q0));
      b1 = odd_k(pair8(panel, t2, q0 + 1));
#pragma GCC unroll 8
      for (int i = 0; i < MR; ++i) {
        const __m256 ai = _mm256_broadcast_ss(a + i * lda + 2 * t2 + 1);
        acc0[i] = _mm256_fmadd_ps(ai, b0, acc0[i]);
        acc1[i] = _mm256_fmadd_ps(ai, b1, acc1[i]);
      }
    }
    if (kc % 2) {  // the odd k's partner is zero padding; x has no element there
      const __m256 b0 = even_k(pair8(panel, kc / 2, q0)), b1 = even_k(pair8(panel, kc / 2, q0 + 1));
#pragma GCC unroll 8
      for (int i = 0; i < MR; ++i) {
        const __m256 ai = _mm256_broadcast_ss(a + i * lda + kc - 1);
        acc0[i] = _mm256_fmadd_ps(ai, b0, acc0[i]);
        acc1[i] = _mm256_fmadd_ps(ai, b1, acc1[i]);
      }
    }
  } else {
    for (int64_t t = 0; t < kc; ++t) {
      const __m256 b0 = panel8<D>(panel, t, q0), b1 = panel8<D>(panel, t, q0 + 1);
#pragma GCC unroll 8
      for (int i = 0; i < MR; ++i) {
        const __m256 ai = _mm256_broadcast_ss(a + i * lda + t);
        acc0[i] = _mm256_fmadd_ps(ai, b0, acc0[i]);
        acc1[i] = _mm256_fmadd_ps(ai, b1, acc1[i]);
      }
    }
  }
  const int valid = ncols - 16 * half;
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) {
    float* ci = c + i * ldc + 16 * half;
    store8(ci, acc0[i], valid, accumulate);
    store8(ci + 8, acc1[i], valid - 8, accumulate);
  }
}

// m = 2 or 3: all 32 columns at once (4 MR accumulators), so the panel is read once, not per
// half: small batches of decode stream whole panels from memory.
template <int MR, DType D>
void tile_wide(const float* a, int64_t lda, const void* panel, int64_t kc, float* c, int64_t ldc,
               int ncols, bool accumulate) {
  __m256 acc[MR][4];
#pragma GCC unroll 4
  for (int i = 0; i < MR; ++i) acc[i][0] = acc[i][1] = acc[i][2] = acc[i][3] = _mm256_setzero_ps();
  auto step = [&](auto widen, auto&& load, int64_t t) {
    __m256 ai[MR];
#pragma GCC unroll 4
    for (int i = 0; i < MR; ++i) ai[i] = _mm256_broadcast_ss(a + i * lda + t);
#pragma GCC unroll 4
    for (int q = 0; q < 4; ++q) {
      const __m256 b = widen(load(q));
#pragma GCC unroll 4
      for (int i = 0; i < MR; ++i) acc[i][q] = _mm256_fmadd_ps(ai[i], b, acc[i][q]);
    }
  };
  if constexpr (D == DType::kBF16) {
    for (int64_t t2 = 0; t2 < (kc + 1) / 2; ++t2) {
      auto load = [&](int q) { return pair8(panel, t2, q); };
      step([](__m256i v) { return even_k(v); }, load, 2 * t2);
      if (2 * t2 + 1 < kc) step([](__m256i v) { return odd_k(v); }, load, 2 * t2 + 1);
    }
  } else {
    for (int64_t t = 0; t < kc; ++t) {
      step([](__m256 v) { return v; }, [&](int q) { return panel8<D>(panel, t, q); }, t);
    }
  }
#pragma GCC unroll 4
  for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 4
    for (int q = 0; q < 4; ++q) store8(c + i * ldc + 8 * q, acc[i][q], ncols - 8 * q, accumulate);
  }
}

template <DType D>
using TileFn = void (*)(const float*, int64_t, const void*, int64_t, float*, int64_t, int, int,
                        bool);

// tile<rows, D> for the 1 .. kMaxMr - 1 rows left after the full-height tiles.
template <DType D, int... R>
constexpr std::array<TileFn<D>, sizeof...(R)> make_remainder_tiles(
    std::integer_sequence<int, R...>) {
  return {&tile<R + 1, D>...};
}

template <DType D>
TileFn<D> remainder_tile(int rows) {
  static constexpr auto kTiles =
      make_remainder_tiles<D>(std::make_integer_sequence<int, kMaxMr - 1>());
  return kTiles[size_t(rows - 1)];
}

template <DType D>
void gemm_panel_typed(const float* a, int64_t lda, int64_t m, const void* panel, int64_t kc,
                      float* c, int64_t ldc, int ncols, bool accumulate) {
  if (m == 1) return tile_m1<D>(a, panel, kc, c, ncols, accumulate);
  if (m == 2) return tile_wide<2, D>(a, lda, panel, kc, c, ldc, ncols, accumulate);
  if (m == 3) return tile_wide<3, D>(a, lda, panel, kc, c, ldc, ncols, accumulate);
  for (int half = 0; half < 2 && 16 * half < ncols; ++half) {
    int64_t i = 0;
    for (; i + kMaxMr <= m; i += kMaxMr) {
      tile<kMaxMr, D>(a + i * lda, lda, panel, kc, c + i * ldc, ldc, half, ncols, accumulate);
    }
    if (i < m) {
      remainder_tile<D>(int(m - i))(a + i * lda, lda, panel, kc, c + i * ldc, ldc, half, ncols,
                                    accumulate);
    }
  }
}

// From this many rows on, a 16-bit panel block is widened to fp32 once and the fp32 tiles run
// over it: the widening then costs 1 / (rows / 6) of what widening inside every tile costs, and
// F16C conversions compete with the FMAs for the same ports (prefill: 1.2x, Xeon at AVX2).
constexpr int64_t kWidenMinRows = 12;
constexpr int64_t kWidenKc = 256;  // a widened block: 32 KiB, in L1 while the tiles pass over it

// Rows [t0, t0 + kc) of a 16-bit panel as fp32 [kc][32] (bf16: k pairs split into even, odd).
void widen_block(const void* panel, DType dtype, int64_t t0, int64_t kc, float* out) {
  if (dtype == DType::kF16) {
    for (int64_t t = 0; t < kc; ++t) {
      for (int q = 0; q < 4; ++q) {
        _mm256_storeu_ps(out + t * kPanelWidth + 8 * q, panel8<DType::kF16>(panel, t0 + t, q));
      }
    }
    return;
  }
  for (int64_t t = 0; t < kc; t += 2) {  // t0 is even: blocks start at multiples of kWidenKc
    for (int q = 0; q < 4; ++q) {
      const __m256i v = pair8(panel, (t0 + t) / 2, q);
      _mm256_storeu_ps(out + t * kPanelWidth + 8 * q, even_k(v));
      if (t + 1 < kc) _mm256_storeu_ps(out + (t + 1) * kPanelWidth + 8 * q, odd_k(v));
    }
  }
}

void gemm_panel(const float* a, int64_t lda, int64_t m, const void* panel, DType dtype, int64_t kc,
                float* c, int64_t ldc, int ncols, bool accumulate) {
  if (dtype != DType::kF32 && m >= kWidenMinRows) {
    alignas(32) float block[kWidenKc * kPanelWidth];
    for (int64_t t0 = 0; t0 < kc; t0 += kWidenKc) {
      const int64_t kb = std::min(kWidenKc, kc - t0);
      widen_block(panel, dtype, t0, kb, block);
      gemm_panel_typed<DType::kF32>(a + t0, lda, m, block, kb, c, ldc, ncols, accumulate || t0 > 0);
    }
    return;
  }
  switch (dtype) {
    case DType::kBF16:
      return gemm_panel_typed<DType::kBF16>(a, lda, m, panel, kc, c, ldc, ncols, accumulate);
    case DType::kF16:
      return gemm_panel_typed<DType::kF16>(a, lda, m, panel, kc, c, ldc, ncols, accumulate);
    default:
      return gemm_panel_typed<DType::kF32>(a, lda, m, panel, kc, c, ldc, ncols, accumulate);
  }
}

}  // namespace avx2

constexpr LinearKernels kAvx2Kernels = {&gemv_rows_dense<avx2::RowDot>, &avx2::gemm_panel,
                                        &pack_panel_f32};

}  // namespace

const LinearKernels& avx2_linear_kernels() { return kAvx2Kernels; }

}  // namespace infergate::detail

#else  // built without AVX2 flags (non-x86 targets): never selected, but must link

namespace infergate::detail {
const LinearKernels& avx2_linear_kernels() { return kPortableKernels; }
}  // namespace infergate::detail

#endif
