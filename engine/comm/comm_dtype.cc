#include "engine/comm/comm_dtype.h"

#include <stdexcept>

namespace infergate {

const char* comm_dtype_name(CommDType dtype) {
  switch (dtype) {
    case CommDType::kF32:
      return "f32";
    case CommDType::kF64:
      return "f64";
    case CommDType::kF16:
      return "f16";
    case CommDType::kBF16:
      return "bf16";
    case CommDType::kI32:
      return "i32";
    case CommDType::kI64:
      return "i64";
    case CommDType::kU8:
      return "u8";
  }
  return "?";
}

CommDType parse_comm_dtype(const std::string& name) {
  if (name == "f32" || name == "float" || name == "float32") return CommDType::kF32;
  if (name == "f64" || name == "double" || name == "float64") return CommDType::kF64;
  if (name == "f16" || name == "half" || name == "float16") return CommDType::kF16;
  if (name == "bf16" || name == "bfloat16") return CommDType::kBF16;
  if (name == "i32" || name == "int32") return CommDType::kI32;
  if (name == "i64" || name == "int64") return CommDType::kI64;
  if (name == "u8" || name == "uint8") return CommDType::kU8;
  throw std::invalid_argument("unknown element type '" + name +
                              "' (allowed: f32|float, f64|double, f16|half, bf16|bfloat16, "
                              "i32|int32, i64|int64, u8|uint8)");
}

size_t comm_dtype_size(CommDType dtype) {
  switch (dtype) {
    case CommDType::kF64:
    case CommDType::kI64:
      return 8;
    case CommDType::kF32:
    case CommDType::kI32:
      return 4;
    case CommDType::kF16:
    case CommDType::kBF16:
      return 2;
    case CommDType::kU8:
      return 1;
  }
  return 0;
}

CommDType comm_dtype_of(DType dtype) {
  switch (dtype) {
    case DType::kF32:
      return CommDType::kF32;
    case DType::kF16:
      return CommDType::kF16;
    case DType::kBF16:
      return CommDType::kBF16;
    case DType::kQ8_0:
    case DType::kQ4_0:
    case DType::kQ4_1:
    case DType::kQ4_K:
    INFERGATE_CASE_PLANE_DTYPES:
    case DType::kW8A8:
    case DType::kFP8:
    case DType::kI8:
    case DType::kF8E4M3:
      break;
  }
  throw std::invalid_argument(std::string("collectives cannot carry tensors of dtype ") +
                              dtype_name(dtype) + " (allowed: f32, f16, bf16)");
}

}  // namespace infergate
