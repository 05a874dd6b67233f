// AVX-512 kernels of `linear` (compiled with -mavx512f -mavx512bw -mavx512vl -mfma -mf16c; only
// called after cpu_features.cc saw those at run time). Weights are widened to fp32 in registers
// and every product is an fp32 FMA, so the result matches fp32 math on the stored weights.
#include "kernels/cpu/linear_kernels.h"

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)
#include <immintrin.h>

#include <array>
#include <cstring>
#include <utility>

namespace infergate::detail {

namespace {

// ---- widening loads of 16 weights -------------------------------------------------------------

inline __m512 load16(const float* p, __mmask16 m) { return _mm512_maskz_loadu_ps(m, p); }
inline __m512 load16_bf16(const uint16_t* p, __mmask16 m) {
  const __m512i w = _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, p));
  return _mm512_castsi512_ps(_mm512_slli_epi32(w, 16));
}
inline __m512 load16_f16(const uint16_t* p, __mmask16 m) {
  return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, p));
}

inline __mmask16 tail_mask(int64_t count) {
  return count >= 16 ? __mmask16(0xffff) : __mmask16((1u << count) - 1u);
}

// ---- GEMV over row-major weights (m = 1): one row at a time, so the weight is read as one
// sequential stream (interleaving rows defeats the hardware prefetcher), 64 columns per step.

template <typename T, __m512 (*Load)(const T*, __mmask16)>
void gemv_rows_dense(const float* x, const void* wv, int64_t k, int64_t rows, float* y) {
  const T* w = static_cast<const T*>(wv);
  for (int64_t r = 0; r < rows; ++r) {
    const T* wr = w + r * k;
    __m512 acc[4];
    for (auto& a : acc) a = _mm512_setzero_ps();
    int64_t j = 0;
    for (; j + 64 <= k; j += 64) {
#pragma GCC unroll 4
      for (int u = 0; u < 4; ++u) {
        acc[u] =
            _mm512_fmadd_ps(Load(wr + j + 16 * u, 0xffff), _mm512_loadu_ps(x + j + 16 * u), acc[u]);
      }
    }
    for (; j < k; j += 16) {
      const __mmask16 m = tail_mask(k - j);
      acc[0] = _mm512_fmadd_ps(Load(wr + j, m), _mm512_maskz_loadu_ps(m, x + j), acc[0]);
    }
    y[r] = _mm512_reduce_add_ps(
        _mm512_add_ps(_mm512_add_ps(acc[0], acc[1]), _mm512_add_ps(acc[2], acc[3])));
  }
}

void gemv_rows(const float* x, const void* w, DType dtype, int64_t k, int64_t rows, float* y) {
  switch (dtype) {
    case DType::kF32:
      return gemv_rows_dense<float, load16>(x, w, k, rows, y);
    case DType::kBF16:
      return gemv_rows_dense<uint16_t, load16_bf16>(x, w, k, rows, y);
    case DType::kF16:
      return gemv_rows_dense<uint16_t, load16_f16>(x, w, k, rows, y);
    case DType::kQ8_0:
    case DType::kQ4_0:
    case DType::kQ4_1:
    case DType::kQ4_K:
    INFERGATE_CASE_PLANE_DTYPES:
    case DType::kW8A8:
    case DType::kFP8:
    case DType::kI8:  // KV cache formats: never a weight (PackedWeight refuses them)
    case DType::kF8E4M3:
      break;  // block formats go to quant_linear() (linear.cc)
  }
}

// ---- GEMM micro-kernels over a [kc][32] panel: an MR x 32 tile of c in 2*MR registers ---------

// Loads panel row t as two fp32 vectors (columns 0-15 and 16-31); f32 and f16 panels.
template <DType D>
inline void load_panel_row(const void* panel, int64_t t, __m512& b0, __m512& b1) {
  if constexpr (D == DType::kF32) {
    const float* p = static_cast<const float*>(panel) + t * kPanelWidth;
    b0 = _mm512_loadu_ps(p);
    b1 = _mm512_loadu_ps(p + 16);
  } else {
    const uint16_t* p = static_cast<const uint16_t*>(panel) + t * kPanelWidth;
    b0 = _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
    b1 = _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 16)));
  }
}

// Loads bf16 panel rows 2 * t2 and 2 * t2 + 1 (one k pair) as fp32: b[0], b[1] for k even
// (columns 0-15, 16-31), b[2], b[3] for k odd. One shift or mask per 16 weights.
inline void load_panel_pair(const void* panel, int64_t t2, __m512 b[4]) {
  const uint16_t* p = static_cast<const uint16_t*>(panel) + t2 * 2 * kPanelWidth;
  const __m512i v0 = _mm512_loadu_si512(p), v1 = _mm512_loadu_si512(p + kPanelWidth);
  const __m512i hi = _mm512_set1_epi32(int(0xffff0000u));
  b[0] = _mm512_castsi512_ps(_mm512_slli_epi32(v0, 16));
  b[1] = _mm512_castsi512_ps(_mm512_slli_epi32(v1, 16));
  b[2] = _mm512_castsi512_ps(_mm512_and_si512(v0, hi));
  b[3] = _mm512_castsi512_ps(_mm512_and_si512(v1, hi));
}

inline void store_tile_row(float* c, __m512 v0, __m512 v1, int ncols, bool accumulate) {
  const __mmask16 m0 = tail_mask(ncols), m1 = tail_mask(ncols > 16 ? ncols - 16 : 0);
  if (accumulate) {
    v0 = _mm512_add_ps(v0, _mm512_maskz_loadu_ps(m0, c));
    v1 = _mm512_add_ps(v1, _mm512_maskz_loadu_ps(m1, c + 16));
  }
  _mm512_mask_storeu_ps(c, m0, v0);
  _mm512_mask_storeu_ps(c + 16, m1, v1);
}

// How many bf16 k pairs (128 bytes each) a streaming m = 1 tile prefetches ahead.
constexpr int64_t kPrefetchPairs = 16;

template <int MR, DType D>
void tile(const float* a, int64_t lda, const void* panel, int64_t kc, float* c, int64_t ldc,
          int ncols, bool accumulate) {
  __m512 acc0[MR], acc1[MR];
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i) acc0[i] = acc1[i] = _mm512_setzero_ps();
  if constexpr (D == DType::kBF16) {
    for (int64_t t2 = 0; t2 < kc / 2; ++t2) {
      if constexpr (MR == 1 && kPrefetchPairs > 0) {  // streaming: fetch well ahead
        _mm_prefetch(static_cast<const char*>(panel) + (t2 + kPrefetchPairs) * 4 * kPanelWidth,
                     _MM_HINT_T0);
        _mm_prefetch(static_cast<const char*>(panel) + (t2 + kPrefetchPairs) * 4 * kPanelWidth + 64,
                     _MM_HINT_T0);
      }
      __m512 b[4];
      load_panel_pair(panel, t2, b);
#pragma GCC unroll 16
      for (int i = 0; i < MR; ++i) {
        const __m512 ae = _mm512_set1_ps(a[i * lda + 2 * t2]);
        const __m512 ao = _mm512_set1_ps(a[i * lda + 2 * t2 + 1]);
        acc0[i] = _mm512_fmadd_ps(ao, b[2], _mm512_fmadd_ps(ae, b[0], acc0[i]));
        acc1[i] = _mm512_fmadd_ps(ao, b[3], _mm512_fmadd_ps(ae, b[1], acc1[i]));
      }
    }
    if (kc % 2) {  // the odd k's partner is zero padding; x has no element there
      __m512 b[4];
      load_panel_pair(panel, kc / 2, b);
#pragma GCC unroll 16
      for (int i = 0; i < MR; ++i) {
        const __m512 ae = _mm512_set1_ps(a[i * lda + kc - 1]);
        acc0[i] = _mm512_fmadd_ps(ae, b[0], acc0[i]);
        acc1[i] = _mm512_fmadd_ps(ae, b[1], acc1[i]);
      }
    }
  } else {
    for (int64_t t = 0; t < kc; ++t) {
      __m512 b0, b1;
      load_panel_row<D>(panel, t, b0, b1);
#pragma GCC unroll 16
      for (int i = 0; i < MR; ++i) {
        const __m512 ai = _mm512_set1_ps(a[i * lda + t]);
        acc0[i] = _mm512_fmadd_ps(ai, b0, acc0[i]);
        acc1[i] = _mm512_fmadd_ps(ai, b1, acc1[i]);
      }
    }
  }
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i) store_tile_row(c + i * ldc, acc0[i], acc1[i], ncols, accumulate);
}

// m = 1 streams the panel (bandwidth-bound): independent accumulators hide the FMA latency.
template <DType D>
void tile_m1(const float* a, const void* panel, int64_t kc, float* c, int ncols, bool accumulate) {
  if constexpr (D == DType::kBF16) {
    return tile<1, D>(a, 0, panel, kc, c, 0, ncols, accumulate);  // two chains per pair
  } else {
    __m512 acc[8];
    for (auto& v : acc) v = _mm512_setzero_ps();
    int64_t t = 0;
    for (; t + 4 <= kc; t += 4) {
#pragma GCC unroll 4
      for (int u = 0; u < 4; ++u) {
        __m512 b0, b1;
        load_panel_row<D>(panel, t + u, b0, b1);
        const __m512 ai = _mm512_set1_ps(a[t + u]);
        acc[2 * u] = _mm512_fmadd_ps(ai, b0, acc[2 * u]);
        acc[2 * u + 1] = _mm512_fmadd_ps(ai, b1, acc[2 * u + 1]);
      }
    }
    for (; t < kc; ++t) {
      __m512 b0, b1;
      load_panel_row<D>(panel, t, b0, b1);
      const __m512 ai = _mm512_set1_ps(a[t]);
      acc[0] = _mm512_fmadd_ps(ai, b0, acc[0]);
      acc[1] = _mm512_fmadd_ps(ai, b1, acc[1]);
    }
    const __m512 s0 = _mm512_add_ps(_mm512_add_ps(acc[0], acc[2]), _mm512_add_ps(acc[4], acc[6]));
    const __m512 s1 = _mm512_add_ps(_mm512_add_ps(acc[1], acc[3]), _mm512_add_ps(acc[5], acc[7]));
    store_tile_row(c, s0, s1, ncols, accumulate);
  }
}

constexpr int kMaxMr = 12;  // 24 accumulators + 2 panel vectors + 1 broadcast of 32 registers

template <DType D>
using TileFn = void (*)(const float*, int64_t, const void*, int64_t, float*, int64_t, int, bool);

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
  int64_t i = 0;
  for (; i + kMaxMr <= m; i += kMaxMr) {
    tile<kMaxMr, D>(a + i * lda, lda, panel, kc, c + i * ldc, ldc, ncols, accumulate);
  }
  const float* ar = a + i * lda;
  float* cr = c + i * ldc;
  if (m == i) return;
  remainder_tile<D>(int(m - i))(ar, lda, panel, kc, cr, ldc, ncols, accumulate);
}

void gemm_panel(const float* a, int64_t lda, int64_t m, const void* panel, DType dtype, int64_t kc,
                float* c, int64_t ldc, int ncols, bool accumulate) {
  switch (dtype) {
    case DType::kBF16:
      return gemm_panel_typed<DType::kBF16>(a, lda, m, panel, kc, c, ldc, ncols, accumulate);
    case DType::kF16:
      return gemm_panel_typed<DType::kF16>(a, lda, m, panel, kc, c, ldc, ncols, accumulate);
    default:
      return gemm_panel_typed<DType::kF32>(a, lda, m, panel, kc, c, ldc, ncols, accumulate);
  }
}

// ---- per-call packing of row-major weights into a fp32 panel ------------------------------

// Transposes a 16x16 fp32 block held in r[0..15] (rows) into columns, in place.
inline void transpose16(__m512 r[16]) {
  __m512 t[16];
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
  auto lo = [](__m512 a, __m512 b) {
    return _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(a), _mm512_castps_pd(b)));
  };
  auto hi = [](__m512 a, __m512 b) {
    return _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(a), _mm512_castps_pd(b)));
  };
  for (int i = 0; i < 16; i += 4) {
    r[i] = lo(t[i], t[i + 2]);
    r[i + 1] = hi(t[i], t[i + 2]);
    r[i + 2] = lo(t[i + 1], t[i + 3]);
    r[i + 3] = hi(t[i + 1], t[i + 3]);
  }
  for (int i = 0; i < 16; i += 8) {
    for (int j = 0; j < 4; ++j) {
      t[i + j] = _mm512_shuffle_f32x4(r[i + j], r[i + j + 4], 0x88);
      t[i + j + 4] = _mm512_shuffle_f32x4(r[i + j], r[i + j + 4], 0xdd);
    }
  }
  for (int j = 0; j < 8; ++j) {
    r[j] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0x88);
    r[j + 8] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0xdd);
  }
}

inline __m512 load_row16(const void* w, DType dtype, int64_t index, __mmask16 m) {
  switch (dtype) {
    case DType::kBF16:
      return load16_bf16(static_cast<const uint16_t*>(w) + index, m);
    case DType::kF16:
      return load16_f16(static_cast<const uint16_t*>(w) + index, m);
    default:
      return load16(static_cast<const float*>(w) + index, m);
  }
}

// Loads 16 columns [kk, kk + 16) of row `row` (zeros past n or past the block).
inline __m512 load_weight16(const void* w, DType dtype, int64_t n, int64_t k, int64_t row,
                            int64_t kk, int64_t kend) {
  if (row >= n || kk >= kend) return _mm512_setzero_ps();
  return load_row16(w, dtype, row * k + kk, tail_mask(kend - kk));
}

void pack_panel_f32(const void* w, DType dtype, int64_t n, int64_t k, int64_t n0, int64_t k0,
                    int64_t kc, float* out) {
  const int64_t kend = k0 + kc;
  for (int64_t kk = k0; kk < kend; kk += 16) {
    const int64_t valid = kend - kk < 16 ? kend - kk : 16;
    for (int half = 0; half < 2; ++half) {
      __m512 r[16];
      for (int i = 0; i < 16; ++i) {
        r[i] = load_weight16(w, dtype, n, k, n0 + half * 16 + i, kk, kend);
      }
      transpose16(r);
      float* dst = out + (kk - k0) * kPanelWidth + half * 16;
      for (int64_t t = 0; t < valid; ++t) _mm512_storeu_ps(dst + t * kPanelWidth, r[t]);
    }
  }
}

constexpr LinearKernels kAvx512Kernels = {&gemv_rows, &gemm_panel, &pack_panel_f32};

}  // namespace

const LinearKernels& avx512_linear_kernels() { return kAvx512Kernels; }

}  // namespace infergate::detail

#else  // built without AVX-512 flags (non-x86 targets): never selected, but must link

namespace infergate::detail {
const LinearKernels& avx512_linear_kernels() { return generic_linear_kernels(); }
}  // namespace infergate::detail

#endif
