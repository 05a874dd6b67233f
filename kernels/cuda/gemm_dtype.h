// The operand types of the GPU GEMMs (gemm_tensor_core.h, cublas_gemm.h). Outputs are fp32.
#pragma once

#include <cstddef>
#include <optional>

#include "kernels/tensor.h"

namespace infergate::cuda {

// f16 and bf16 operands are passed as raw 16-bit patterns (void*): no device types on the host.
enum class GemmDType { kF32, kF16, kBF16 };

inline const char* gemm_dtype_name(GemmDType dtype) {
  switch (dtype) {
    case GemmDType::kF32:
      return "f32";
    case GemmDType::kF16:
      return "f16";
    case GemmDType::kBF16:
      return "bf16";
  }
  return "unknown";
}

// Bytes per element.
inline size_t gemm_dtype_size(GemmDType dtype) { return dtype == GemmDType::kF32 ? 4 : 2; }

// The tensor dtype with the same element encoding.
inline DType tensor_dtype(GemmDType dtype) {
  switch (dtype) {
    case GemmDType::kF32:
      return DType::kF32;
    case GemmDType::kF16:
      return DType::kF16;
    case GemmDType::kBF16:
      return DType::kBF16;
  }
  return DType::kF32;
}

// The GEMM operand type a tensor's elements can be read as; none for block formats (q8_0, q4_0,
// q4_1, q4_k, w8a8).
inline std::optional<GemmDType> gemm_dtype_of(DType dtype) {
  switch (dtype) {
    case DType::kF32:
      return GemmDType::kF32;
    case DType::kF16:
      return GemmDType::kF16;
    case DType::kBF16:
      return GemmDType::kBF16;
    default:
      return std::nullopt;
  }
}

}  // namespace infergate::cuda
