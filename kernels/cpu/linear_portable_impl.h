// Internal: the portable kernels of `linear`, written so the compiler can vectorize them (fixed
// trip counts, independent partial sums). Included by exactly two translation units: one built
// for the baseline ISA (linear_generic.cc) and one built with AVX2/FMA/F16C (linear_avx2.cc).
// Everything here has internal linkage, so neither build's code can stand in for the other's.
#pragma once

#include <cstring>

#include "kernels/cpu/convert.h"
#include "kernels/cpu/linear_kernels.h"

#if defined(__F16C__)
#include <immintrin.h>
#endif

namespace infergate::detail {
namespace {

constexpr int64_t kChunk = 256;  // columns widened to fp32 at a time (a multiple of 32)

inline float widen_bf16(uint16_t h) {
  const uint32_t bits = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

void widen_f16(const uint16_t* p, int64_t count, float* out) {
  int64_t i = 0;
#if defined(__F16C__)
  for (; i + 8 <= count; i += 8) {
    _mm256_storeu_ps(out + i,
                     _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i))));
  }
#endif
  for (; i < count; ++i) out[i] = f16_to_f32(p[i]);
}

// Widens columns [j0, j0 + len) of row `row` of w ([*, k] in dtype) to fp32. For the block formats,
// j0 and len are multiples of 32.
void widen(const void* w, DType dtype, int64_t k, int64_t row, int64_t j0, int64_t len,
           float* out) {
  switch (dtype) {
    case DType::kF32:
      std::memcpy(out, static_cast<const float*>(w) + row * k + j0, static_cast<size_t>(len) * 4);
      return;
    case DType::kBF16: {
      const uint16_t* p = static_cast<const uint16_t*>(w) + row * k + j0;
      for (int64_t i = 0; i < len; ++i) out[i] = widen_bf16(p[i]);
      return;
    }
    case DType::kF16:
      return widen_f16(static_cast<const uint16_t*>(w) + row * k + j0, len, out);
    case DType::kQ8_0:
    case DType::kQ4_0:
    case DType::kQ4_1:
    case DType::kQ4_K:
    INFERGATE_CASE_PLANE_DTYPES:
    case DType::kW8A8:
    case DType::kFP8: {
      const int64_t block = dtype_block_elems(dtype);
      const size_t block_bytes = dtype_bytes(dtype, block);
      const auto* p = static_cast<const uint8_t*>(w) + dtype_bytes(dtype, row * k + j0);
      for (int64_t b = 0; b < len / block; ++b, p += block_bytes) {
        dequantize_block(p, dtype, out + b * block);
      }
      return;
    }
    case DType::kI8:  // KV cache formats: never a weight (PackedWeight refuses them)
    case DType::kF8E4M3:
      return;
  }
}

// Sixteen partial sums: the compiler turns the inner loop into vector FMAs without reassociating.
float dot(const float* a, const float* b, int64_t len) {
  float acc[16] = {};
  int64_t j = 0;
  for (; j + 16 <= len; j += 16) {
    for (int l = 0; l < 16; ++l) acc[l] += a[j + l] * b[j + l];
  }
  float s = 0;
  for (; j < len; ++j) s += a[j] * b[j];
  for (float v : acc) s += v;
  return s;
}

void gemv_rows(const float* x, const void* w, DType dtype, int64_t k, int64_t rows, float* y) {
  alignas(64) float buf[kChunk];
  for (int64_t r = 0; r < rows; ++r) {
    float s = 0;
    for (int64_t j0 = 0; j0 < k; j0 += kChunk) {
      const int64_t len = k - j0 < kChunk ? k - j0 : kChunk;
      if (dtype == DType::kF32) {
        s += dot(x + j0, static_cast<const float*>(w) + r * k + j0, len);
      } else {
        widen(w, dtype, k, r, j0, len, buf);
        s += dot(x + j0, buf, len);
      }
    }
    y[r] = s;
  }
}

// Panel row t as 32 fp32 values (bf16 panels keep k in pairs: see linear_kernels.h).
inline const float* panel_row(const void* panel, DType dtype, int64_t t, float* buf) {
  if (dtype == DType::kF32) return static_cast<const float*>(panel) + t * kPanelWidth;
  const uint16_t* p = static_cast<const uint16_t*>(panel);
  if (dtype == DType::kF16) {
    widen_f16(p + t * kPanelWidth, kPanelWidth, buf);
  } else {
    for (int j = 0; j < kPanelWidth; ++j) buf[j] = widen_bf16(p[bf16_panel_index(t, j)]);
  }
  return buf;
}

template <int MR>
void tile(const float* a, int64_t lda, const void* panel, DType dtype, int64_t kc, float* c,
          int64_t ldc, int ncols, bool accumulate) {
  alignas(64) float acc[MR][kPanelWidth] = {};
  alignas(64) float buf[kPanelWidth];
  for (int64_t t = 0; t < kc; ++t) {
    const float* b = panel_row(panel, dtype, t, buf);
    for (int i = 0; i < MR; ++i) {
      const float ai = a[i * lda + t];
      for (int j = 0; j < kPanelWidth; ++j) acc[i][j] += ai * b[j];
    }
  }
  for (int i = 0; i < MR; ++i) {
    float* ci = c + i * ldc;
    for (int j = 0; j < ncols; ++j) ci[j] = accumulate ? ci[j] + acc[i][j] : acc[i][j];
  }
}

void gemm_panel(const float* a, int64_t lda, int64_t m, const void* panel, DType dtype, int64_t kc,
                float* c, int64_t ldc, int ncols, bool accumulate) {
  int64_t i = 0;
  for (; i + 4 <= m; i += 4) {
    tile<4>(a + i * lda, lda, panel, dtype, kc, c + i * ldc, ldc, ncols, accumulate);
  }
  for (; i < m; ++i) {
    tile<1>(a + i * lda, lda, panel, dtype, kc, c + i * ldc, ldc, ncols, accumulate);
  }
}

void pack_panel_f32(const void* w, DType dtype, int64_t n, int64_t k, int64_t n0, int64_t k0,
                    int64_t kc, float* out) {
  alignas(64) float buf[kChunk];
  for (int r = 0; r < kPanelWidth; ++r) {
    const int64_t row = n0 + r;
    for (int64_t j0 = 0; j0 < kc; j0 += kChunk) {
      const int64_t len = kc - j0 < kChunk ? kc - j0 : kChunk;
      if (row < n) {
        widen(w, dtype, k, row, k0 + j0, len, buf);
      } else {
        for (int64_t t = 0; t < len; ++t) buf[t] = 0.0f;
      }
      for (int64_t t = 0; t < len; ++t) out[(j0 + t) * kPanelWidth + r] = buf[t];
    }
  }
}

constexpr LinearKernels kPortableKernels = {&gemv_rows, &gemm_panel, &pack_panel_f32};

}  // namespace
}  // namespace infergate::detail
