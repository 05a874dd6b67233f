// NEON kernels of `linear` for aarch64, where Advanced SIMD is baseline: no flags, and the table
// is chosen whenever cpu_features.cc reports kNeon. As in the x86 kernels, weights are widened to
// fp32 in registers (fcvtl for f16, a shift or mask for bf16) and every product is an fp32 FMA,
// so results match fp32 math on the stored weights. aarch64 has 32 vector registers of 4 fp32:
// the m > 1 micro-kernel is 8 rows x 8 columns (16 accumulators; 4 x 16 for up to 4 rows), and
// it reads x unpacked, four k values of a row per load, broadcasting each from its lane
// (vfmaq_laneq_f32).
#if defined(__aarch64__)
#include <arm_neon.h>

#include <algorithm>
#include <cstring>

#include "kernels/cpu/linear_gemv_rows_impl.h"
#include "kernels/cpu/linear_portable_impl.h"  // pack_panel_f32: per-call packing

namespace infergate::detail {
namespace {
namespace neon {

constexpr int kPanelVecs = kPanelWidth / 4;  // a panel row: 8 vectors
constexpr int64_t kPrefetchBytes = 2048;     // streamed panels: as the x86 kernels
constexpr int kMr = 8, kQuarterVecs = 2;     // the micro-kernel: 8 rows x 8 columns
constexpr int kFewRows = 4, kHalfVecs = 4;   // up to 4 rows: 16 columns (a 64-byte line)
constexpr int64_t kWidenKc = 256;            // widened 16-bit panel block: 32 KiB, in L1

// ---- widening loads ---------------------------------------------------------------------------

inline float32x4_t widen4_f16(uint16x4_t h) { return vcvt_f32_f16(vreinterpret_f16_u16(h)); }
inline float32x4_t widen4_bf16(uint16x4_t h) { return vreinterpretq_f32_u32(vshll_n_u16(h, 16)); }

// One fcvt, where convert.h's f16_to_f32 is an out-of-line bit-twiddling call.
inline float half_to_float(uint16_t h) { return vgetq_lane_f32(widen4_f16(vdup_n_u16(h)), 0); }

// Four weights [j, j + 4) of a row-major weight row in dtype D, as fp32.
template <DType D>
inline float32x4_t load4(const void* row, int64_t j) {
  if constexpr (D == DType::kF32) {
    return vld1q_f32(static_cast<const float*>(row) + j);
  } else {
    const uint16x4_t h = vld1_u16(static_cast<const uint16_t*>(row) + j);
    return D == DType::kF16 ? widen4_f16(h) : widen4_bf16(h);
  }
}

template <DType D>
inline float load1(const void* row, int64_t j) {
  if constexpr (D == DType::kF32) return static_cast<const float*>(row)[j];
  const uint16_t h = static_cast<const uint16_t*>(row)[j];
  return D == DType::kF16 ? half_to_float(h) : widen_bf16(h);  // the portable scalar
}

// ---- GEMV over row-major weights (m = 1): the dot product of x and one row ------------------

// Eight accumulators: enough independent FMA chains to hide the FMA latency on wide cores.
struct RowDot {
  template <DType D>
  static float of(const float* x, const void* row, int64_t k) {
    float32x4_t acc[8];
    for (auto& v : acc) v = vdupq_n_f32(0.0f);
    int64_t j = 0;
    for (; j + 32 <= k; j += 32) {
#pragma GCC unroll 8
      for (int u = 0; u < 8; ++u) {
        acc[u] = vfmaq_f32(acc[u], load4<D>(row, j + 4 * u), vld1q_f32(x + j + 4 * u));
      }
    }
    for (; j + 4 <= k; j += 4) acc[0] = vfmaq_f32(acc[0], load4<D>(row, j), vld1q_f32(x + j));
    for (int u = 1; u < 8; ++u) acc[0] = vaddq_f32(acc[0], acc[u]);
    float s = vaddvq_f32(acc[0]);
    for (; j < k; ++j) s += x[j] * load1<D>(row, j);
    return s;
  }
};

// ---- panel rows as fp32 -------------------------------------------------------------------

// Columns [4v, 4v + 4) of row t of an f32 or f16 panel.
template <DType D>
inline float32x4_t panel4(const void* panel, int64_t t, int v) {
  if constexpr (D == DType::kF32) {
    return vld1q_f32(static_cast<const float*>(panel) + t * kPanelWidth + 4 * v);
  } else {
    return widen4_f16(vld1_u16(static_cast<const uint16_t*>(panel) + t * kPanelWidth + 4 * v));
  }
}

// bf16 panels keep k in pairs (linear_kernels.h): lane j of pair t2 holds column 4v + j for
// k = 2 t2 (low half: shift up) and k = 2 t2 + 1 (high half: mask), one load for both.
inline uint32x4_t bf16_pair4(const void* panel, int64_t t2, int v) {
  return vreinterpretq_u32_u16(
      vld1q_u16(static_cast<const uint16_t*>(panel) + (t2 * kPanelWidth + 4 * v) * 2));
}
inline float32x4_t even_k(uint32x4_t pair) { return vreinterpretq_f32_u32(vshlq_n_u32(pair, 16)); }
inline float32x4_t odd_k(uint32x4_t pair) {
  return vreinterpretq_f32_u32(vandq_u32(pair, vdupq_n_u32(0xffff0000u)));
}

// c[0, valid) (+)= v, for a column vector that may hang over the panel's last real column.
inline void store4(float* c, float32x4_t v, int valid, bool accumulate) {
  if (valid >= 4) {
    vst1q_f32(c, accumulate ? vaddq_f32(v, vld1q_f32(c)) : v);
    return;
  }
  float lanes[4];
  vst1q_f32(lanes, v);
  for (int l = 0; l < valid; ++l) c[l] = accumulate ? c[l] + lanes[l] : lanes[l];
}

// ---- m = 1: stream the panel (bandwidth-bound), prefetching ahead --------------------------

// Even and odd k go to separate accumulators: 16 independent FMA chains, and for bf16 panels
// the two halves of each loaded pair.
template <DType D>
void tile_m1(const float* a, const void* panel, int64_t kc, float* c, int ncols, bool accumulate) {
  constexpr int64_t kRowBytes = D == DType::kF32 ? 4 * kPanelWidth : 2 * kPanelWidth;
  // Every loop over v is unrolled: a variable index would keep the accumulators in memory.
  float32x4_t even[kPanelVecs], odd[kPanelVecs];
#pragma GCC unroll 8
  for (int v = 0; v < kPanelVecs; ++v) even[v] = odd[v] = vdupq_n_f32(0.0f);
  for (int64_t t2 = 0; t2 < kc / 2; ++t2) {
    __builtin_prefetch(static_cast<const char*>(panel) + 2 * t2 * kRowBytes + kPrefetchBytes);
    const float a0 = a[2 * t2], a1 = a[2 * t2 + 1];
#pragma GCC unroll 8
    for (int v = 0; v < kPanelVecs; ++v) {
      if constexpr (D == DType::kBF16) {
        const uint32x4_t pair = bf16_pair4(panel, t2, v);
        even[v] = vfmaq_n_f32(even[v], even_k(pair), a0);
        odd[v] = vfmaq_n_f32(odd[v], odd_k(pair), a1);
      } else {
        even[v] = vfmaq_n_f32(even[v], panel4<D>(panel, 2 * t2, v), a0);
        odd[v] = vfmaq_n_f32(odd[v], panel4<D>(panel, 2 * t2 + 1, v), a1);
      }
    }
  }
  if (kc % 2) {  // the last k has no partner (bf16: its partner is zero padding)
    const int64_t t = kc - 1;
#pragma GCC unroll 8
    for (int v = 0; v < kPanelVecs; ++v) {
      const float32x4_t b =
          D == DType::kBF16 ? even_k(bf16_pair4(panel, t / 2, v)) : panel4<D>(panel, t, v);
      even[v] = vfmaq_n_f32(even[v], b, a[t]);
    }
  }
#pragma GCC unroll 8
  for (int v = 0; v < kPanelVecs; ++v) {
    store4(c + 4 * v, vaddq_f32(even[v], odd[v]), ncols - 4 * v, accumulate);
  }
}

// ---- m > 1 over fp32 panels: MR rows x 4 NV columns, register-blocked -----------------------

// acc[i][v] += panel row `b` (columns [4v, 4v + 4)) * lane L of av[i], i.e. a[i, t + L].
template <int MR, int NV, int L>
inline void fma_lane(float32x4_t (&acc)[MR][NV], const float32x4_t (&av)[MR], const float* b) {
#pragma GCC unroll 8
  for (int v = 0; v < NV; ++v) {
    const float32x4_t bv = vld1q_f32(b + 4 * v);
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) acc[i][v] = vfmaq_laneq_f32(acc[i][v], bv, av[i], L);
  }
}

// c[0:MR, 0:valid) (+)= acc: the last panel of a weight may have fewer than 32 real columns.
template <int MR, int NV>
inline void store_tile(const float32x4_t (&acc)[MR][NV], float* c, int64_t ldc, int valid,
                       bool accumulate) {
  if (valid >= 4 * NV) {
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 8
      for (int v = 0; v < NV; ++v) store4(c + i * ldc + 4 * v, acc[i][v], 4, accumulate);
    }
    return;
  }
  // Unrolled, so that acc stays in registers: a variable index would make it an array in memory.
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) {
    float row[4 * NV];
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) vst1q_f32(row + 4 * v, acc[i][v]);
    float* ci = c + i * ldc;
    for (int j = 0; j < valid; ++j) ci[j] = accumulate ? ci[j] + row[j] : row[j];
  }
}

// c[0:MR, 0:4 NV] (+)= a[0:MR, 0:kc] * panel[0:kc, 0:4 NV]; `panel` and `c` point at the tile's
// first column, `valid` is how many of its columns are real. Registers: MR x NV accumulators,
// MR vectors of x, one or two panel vectors (<8, 2>: 26 of 32; <4, 4>: 22).
template <int MR, int NV>
void tile(const float* a, int64_t lda, const float* panel, int64_t kc, float* c, int64_t ldc,
          int valid, bool accumulate) {
  float32x4_t acc[MR][NV];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) acc[i][v] = vdupq_n_f32(0.0f);
  }
  float32x4_t av[MR];
  int64_t t = 0;
  for (; t + 4 <= kc; t += 4) {  // four k per load of x
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) av[i] = vld1q_f32(a + i * lda + t);
    const float* b = panel + t * kPanelWidth;
    fma_lane<MR, NV, 0>(acc, av, b);
    fma_lane<MR, NV, 1>(acc, av, b + kPanelWidth);
    fma_lane<MR, NV, 2>(acc, av, b + 2 * kPanelWidth);
    fma_lane<MR, NV, 3>(acc, av, b + 3 * kPanelWidth);
  }
  for (; t < kc; ++t) {  // x has no element past kc: broadcast one at a time
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) av[i] = vdupq_n_f32(a[i * lda + t]);
    fma_lane<MR, NV, 0>(acc, av, panel + t * kPanelWidth);
  }
  store_tile(acc, c, ldc, valid, accumulate);
}

// tile<rows, NV> for 1 <= rows <= MR: the tile templates instantiated once per height.
template <int MR, int NV>
void tile_rows(int rows, const float* a, int64_t lda, const float* panel, int64_t kc, float* c,
               int64_t ldc, int valid, bool accumulate) {
  if constexpr (MR > 1) {
    if (rows < MR) return tile_rows<MR - 1, NV>(rows, a, lda, panel, kc, c, ldc, valid, accumulate);
  }
  tile<MR, NV>(a, lda, panel, kc, c, ldc, valid, accumulate);
}

void gemm_f32(const float* a, int64_t lda, int64_t m, const float* panel, int64_t kc, float* c,
              int64_t ldc, int ncols, bool accumulate) {
  // Small decode batches stream whole panels from memory (linear.cc): 16 columns are one 64-byte
  // line of a panel row, so every line is read once, whereas quarters would read each twice.
  if (m <= kFewRows) {
    for (int c0 = 0; c0 < ncols; c0 += 4 * kHalfVecs) {
      tile_rows<kFewRows, kHalfVecs>(int(m), a, lda, panel + c0, kc, c + c0, ldc, ncols - c0,
                                     accumulate);
    }
    return;
  }
  // Row blocks outside, quarters inside: 8 rows of x (8 KiB at kc = 256) stay in L1 across the
  // four quarters, the panel block (32 KiB) across the row blocks.
  for (int64_t i = 0; i < m; i += kMr) {
    const int rows = int(std::min<int64_t>(kMr, m - i));
    for (int c0 = 0; c0 < ncols; c0 += 4 * kQuarterVecs) {
      tile_rows<kMr, kQuarterVecs>(rows, a + i * lda, lda, panel + c0, kc, c + i * ldc + c0, ldc,
                                   ncols - c0, accumulate);
    }
  }
}

// Rows [t0, t0 + kb) of a 16-bit panel as an fp32 [kb][32] block; t0 is even (a multiple of
// kWidenKc), so bf16 pairs are never split.
template <DType D>
void widen_block(const void* panel, int64_t t0, int64_t kb, float* out) {
  for (int64_t t = 0; t < kb; t += D == DType::kBF16 ? 2 : 1) {
#pragma GCC unroll 8
    for (int v = 0; v < kPanelVecs; ++v) {
      float* o = out + t * kPanelWidth + 4 * v;
      if constexpr (D == DType::kBF16) {
        const uint32x4_t pair = bf16_pair4(panel, (t0 + t) / 2, v);
        vst1q_f32(o, even_k(pair));
        if (t + 1 < kb) vst1q_f32(o + kPanelWidth, odd_k(pair));
      } else {
        vst1q_f32(o, panel4<D>(panel, t0 + t, v));
      }
    }
  }
}

void gemm_panel(const float* a, int64_t lda, int64_t m, const void* panel, DType dtype, int64_t kc,
                float* c, int64_t ldc, int ncols, bool accumulate) {
  if (m == 1) {
    switch (dtype) {
      case DType::kBF16:
        return tile_m1<DType::kBF16>(a, panel, kc, c, ncols, accumulate);
      case DType::kF16:
        return tile_m1<DType::kF16>(a, panel, kc, c, ncols, accumulate);
      default:
        return tile_m1<DType::kF32>(a, panel, kc, c, ncols, accumulate);
    }
  }
  if (dtype == DType::kF32) {
    return gemm_f32(a, lda, m, static_cast<const float*>(panel), kc, c, ldc, ncols, accumulate);
  }
  // 16-bit panels, m > 1: each block of kWidenKc rows is widened to fp32 once and the fp32
  // tiles run over it, so the micro-kernel stays one FMA per panel value per row.
  alignas(64) float block[kWidenKc * kPanelWidth];
  for (int64_t t0 = 0; t0 < kc; t0 += kWidenKc) {
    const int64_t kb = std::min(kWidenKc, kc - t0);
    if (dtype == DType::kF16) {
      widen_block<DType::kF16>(panel, t0, kb, block);
    } else {
      widen_block<DType::kBF16>(panel, t0, kb, block);
    }
    gemm_f32(a + t0, lda, m, block, kb, c, ldc, ncols, accumulate || t0 > 0);
  }
}

}  // namespace neon

constexpr LinearKernels kNeonKernels = {&gemv_rows_dense<neon::RowDot>, &neon::gemm_panel,
                                        &pack_panel_f32};

}  // namespace

const LinearKernels& neon_linear_kernels() { return kNeonKernels; }

}  // namespace infergate::detail

#else  // not aarch64: never selected, but must link

#include "kernels/cpu/linear_kernels.h"

namespace infergate::detail {
const LinearKernels& neon_linear_kernels() { return generic_linear_kernels(); }
}  // namespace infergate::detail

#endif
