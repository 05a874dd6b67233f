// Internal: the per-ISA building blocks of `linear`, one table per instruction-set level.
// Each table lives in its own translation unit compiled for that ISA, so the interface is raw
// pointers only (no inline library code whose out-of-line copy could leak an ISA elsewhere).
#pragma once

#include <cstdint>

#include "kernels/cpu/cpu_features.h"
#include "kernels/tensor.h"

namespace infergate::detail {

// Columns of y (rows of W) per packed panel: two AVX-512 fp32 vectors.
inline constexpr int kPanelWidth = 32;

struct LinearKernels {
  // y[r] = sum_j x[j] * w[r, j] for r in [0, rows); w: row-major [rows, k] in `dtype` (f32,
  // f16 or bf16: the block formats have their own kernels, quant_kernels.h).
  void (*gemv_rows)(const float* x, const void* w, DType dtype, int64_t k, int64_t rows, float* y);
  // For i < m: c[i, 0:ncols] (+)= sum_{t < kc} a[i, t] * panel[t, 0:ncols], where panel is a
  // [kc][kPanelWidth] block in `dtype` (kF32, kF16, or kBF16 in the k-pair order below; kc may
  // be odd only for a panel's last block). Adds to c when `accumulate`, else overwrites it.
  void (*gemm_panel)(const float* a, int64_t lda, int64_t m, const void* panel, DType dtype,
                     int64_t kc, float* c, int64_t ldc, int ncols, bool accumulate);
  // Writes rows [n0, n0 + kPanelWidth) of w ([n, k], any dtype; rows >= n as zeros), columns
  // [k0, k0 + kc), as a fp32 [kc][kPanelWidth] block. For the block formats, k0 and kc are
  // multiples of 32.
  void (*pack_panel_f32)(const void* w, DType dtype, int64_t n, int64_t k, int64_t n0, int64_t k0,
                         int64_t kc, float* out);
};

// AMX-BF16 GEMM for bf16 panels. x is split into bf16 hi = bf16(x) and lo = bf16(x - hi), and
// y = hi * W + lo * W in fp32 tiles: x keeps 16 significant bits (|x - hi - lo| <= 2^-16 |x|)
// and W is exact, so each product is off by at most 2^-16 relative (errors of random sign:
// typically ~1e-6 of the result), near fp32 summation's accuracy, at AMX speed.
struct AmxKernels {
  // Rows [r0, r1) of hi/lo ([*, kp] bf16) from x ([m, k] fp32); rows >= m and columns >= k
  // are zero.
  void (*split_bf16)(const float* x, int64_t m, int64_t k, int64_t kp, int64_t r0, int64_t r1,
                     uint16_t* hi, uint16_t* lo);
  // For panels p in [p0, p1) of `panels` (each kp x 32 bf16, k-pair order) and rows [0, rows)
  // of hi/lo (rows a multiple of 32, leading dimension kp): c[i, 32p + j] = (x W^T)[i, 32p + j]
  // for i < valid_rows and 32p + j < n.
  void (*gemm_panels)(const uint16_t* hi, const uint16_t* lo, int64_t rows, int64_t valid_rows,
                      const uint16_t* panels, int64_t kp, int64_t p0, int64_t p1, float* c,
                      int64_t ldc, int64_t n);
};
// Null when the library was built without AMX support.
const AmxKernels* amx_kernels();

const LinearKernels& generic_linear_kernels();
const LinearKernels& avx2_linear_kernels();
const LinearKernels& avx512_linear_kernels();
const LinearKernels& neon_linear_kernels();  // aarch64; elsewhere the generic table
const LinearKernels& linear_kernels_for(IsaLevel level);

// bf16 panels keep k in pairs, the order AMX tiles and VNNI dot products read: element (t, j)
// of a panel sits at ((t / 2) * kPanelWidth + j) * 2 + t % 2, and k is padded with zeros to a
// multiple of kBf16KAlign (one AMX tile row holds 32 bf16). One 32-bit lane thus holds the
// weights of column j for k = t and t + 1, which a shift and a mask turn into two fp32 values.
inline constexpr int64_t kBf16KAlign = 32;
inline constexpr int64_t bf16_panel_index(int64_t t, int j) {
  return ((t >> 1) * kPanelWidth + j) * 2 + (t & 1);
}
// Rows of k stored per panel for a weight of this dtype.
inline constexpr int64_t panel_k(DType dtype, int64_t k) {
  return dtype == DType::kBF16 ? (k + kBf16KAlign - 1) / kBf16KAlign * kBf16KAlign : k;
}

}  // namespace infergate::detail
