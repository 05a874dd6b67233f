// Constants of the GGUF container (ggml docs/gguf.md) shared by the reader and the writer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "kernels/tensor.h"

namespace infergate {

inline constexpr uint32_t kGgufMagic = 0x46554747;  // "GGUF" read as a little-endian u32
inline constexpr uint32_t kGgufVersion = 3;
inline constexpr uint32_t kGgufDefaultAlignment = 32;
inline constexpr uint64_t kGgufMaxNameLength = 64;  // tensor names, per the spec

enum class GgufValueType : uint32_t {
  kUint8 = 0,
  kInt8 = 1,
  kUint16 = 2,
  kInt16 = 3,
  kUint32 = 4,
  kInt32 = 5,
  kFloat32 = 6,
  kBool = 7,
  kString = 8,
  kArray = 9,
  kUint64 = 10,
  kInt64 = 11,
  kFloat64 = 12,
};

// ggml_type ids of the tensor types infergate stores; all others are rejected by name.
enum class GgmlType : uint32_t {
  kF32 = 0,
  kF16 = 1,
  kQ4_0 = 2,
  kQ4_1 = 3,
  kQ5_0 = 6,
  kQ5_1 = 7,
  kQ8_0 = 8,
  kQ2_K = 10,
  kQ3_K = 11,
  kQ4_K = 12,
  kQ5_K = 13,
  kQ6_K = 14,
  kIQ4_NL = 20,
  kIQ4_XS = 23,
  kBF16 = 30
};

// "Q4_K" for 12 and so on; "unknown" for ids ggml never assigned.
const char* ggml_type_name(uint32_t type);
std::optional<DType> dtype_from_ggml(uint32_t type);
GgmlType ggml_type_from_dtype(DType dtype);
// llama.cpp's general.file_type (llama_ftype) for a model whose matrices are `dtype`.
uint32_t gguf_file_type(DType dtype);

}  // namespace infergate
