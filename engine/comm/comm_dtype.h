// The element types collectives carry: the engine's activations (f32 on CPUs; f16 and bf16 on
// GPUs, as the kernels' tensors store them), token ids and counts (i32, i64), f64 for exact
// sums, and raw bytes (u8).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "kernels/tensor.h"

namespace infergate {

enum class CommDType : uint8_t { kF32, kF64, kF16, kBF16, kI32, kI64, kU8 };

// IEEE half and bfloat16 storage (the same bits as kernels/cpu/convert.h reads): distinct types so
// that a span of them says which 16-bit format it holds.
struct Float16 {
  uint16_t bits;
};
struct BFloat16 {
  uint16_t bits;
};

// "f32", "f64", "f16", "bf16", "i32", "i64", "u8".
const char* comm_dtype_name(CommDType dtype);
// Accepts the names above and nccl-tests' (float, double, half, bfloat16, int32, int64, uint8);
// throws std::invalid_argument naming the allowed values.
CommDType parse_comm_dtype(const std::string& name);
size_t comm_dtype_size(CommDType dtype);
// The tensor dtypes that collectives can carry (f32, f16, bf16); throws for q8_0 and q4_0,
// block formats that no reduction understands.
CommDType comm_dtype_of(DType dtype);

// The CommDType of a C++ element type; only the types below are allowed in a CommSpan.
template <typename T>
struct CommDTypeOf;
template <>
struct CommDTypeOf<float> : std::integral_constant<CommDType, CommDType::kF32> {};
template <>
struct CommDTypeOf<double> : std::integral_constant<CommDType, CommDType::kF64> {};
template <>
struct CommDTypeOf<Float16> : std::integral_constant<CommDType, CommDType::kF16> {};
template <>
struct CommDTypeOf<BFloat16> : std::integral_constant<CommDType, CommDType::kBF16> {};
template <>
struct CommDTypeOf<int32_t> : std::integral_constant<CommDType, CommDType::kI32> {};
template <>
struct CommDTypeOf<int64_t> : std::integral_constant<CommDType, CommDType::kI64> {};
template <>
struct CommDTypeOf<uint8_t> : std::integral_constant<CommDType, CommDType::kU8> {};

template <typename T>
concept CommElement = requires {
  CommDTypeOf<std::remove_cv_t<T>>::value;
};

}  // namespace infergate
