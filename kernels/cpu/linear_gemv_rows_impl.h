// Internal: gemv_rows (linear_kernels.h) over row-major f32, bf16 and f16 weights, for the SIMD
// kernel tables whose m = 1 path is a dot product per row (linear_avx2.cc, linear_neon.cc). The
// walk is written once here; `RowDot::of<D>(x, row, k)` is the ISA's dot product of x with one
// row of k weights in dtype D. Internal linkage keeps each ISA's build its own.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/cpu/linear_kernels.h"

namespace infergate::detail {
namespace {

// One row at a time: the weight is read as one sequential stream.
template <class RowDot, DType D>
void gemv_rows_typed(const float* x, const void* w, int64_t k, int64_t rows, float* y) {
  const size_t row_bytes = D == DType::kF32 ? size_t(k) * 4 : size_t(k) * 2;
  for (int64_t r = 0; r < rows; ++r) {
    y[r] = RowDot::template of<D>(x, static_cast<const uint8_t*>(w) + size_t(r) * row_bytes, k);
  }
}

template <class RowDot>
void gemv_rows_dense(const float* x, const void* w, DType dtype, int64_t k, int64_t rows,
                     float* y) {
  switch (dtype) {
    case DType::kF32:
      return gemv_rows_typed<RowDot, DType::kF32>(x, w, k, rows, y);
    case DType::kBF16:
      return gemv_rows_typed<RowDot, DType::kBF16>(x, w, k, rows, y);
    case DType::kF16:
      return gemv_rows_typed<RowDot, DType::kF16>(x, w, k, rows, y);
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

}  // namespace
}  // namespace infergate::detail
