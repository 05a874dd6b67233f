#include "engine/model/gguf_format.h"

#include <array>

namespace infergate {

const char* ggml_type_name(uint32_t type) {
  static constexpr std::array<const char*, 36> kNames = {
      "F32",      "F16",      "Q4_0",    "Q4_1",  "Q4_2",   "Q4_3",  "Q5_0",  "Q5_1",
      "Q8_0",     "Q8_1",     "Q2_K",    "Q3_K",  "Q4_K",   "Q5_K",  "Q6_K",  "Q8_K",
      "IQ2_XXS",  "IQ2_XS",   "IQ3_XXS", "IQ1_S", "IQ4_NL", "IQ3_S", "IQ2_S", "IQ4_XS",
      "I8",       "I16",      "I32",     "I64",   "F64",    "IQ1_M", "BF16",  "Q4_0_4_4",
      "Q4_0_4_8", "Q4_0_8_8", "TQ1_0",   "TQ2_0"};
  return type < kNames.size() ? kNames[type] : "unknown";
}

std::optional<DType> dtype_from_ggml(uint32_t type) {
  switch (static_cast<GgmlType>(type)) {
    case GgmlType::kF32:
      return DType::kF32;
    case GgmlType::kF16:
      return DType::kF16;
    case GgmlType::kQ8_0:
      return DType::kQ8_0;
    case GgmlType::kQ4_0:
      return DType::kQ4_0;
    case GgmlType::kQ4_1:
      return DType::kQ4_1;
    case GgmlType::kQ4_K:
      return DType::kQ4_K;
    case GgmlType::kBF16:
      return DType::kBF16;
    case GgmlType::kQ5_0:
      return DType::kQ5_0;
    case GgmlType::kQ5_1:
      return DType::kQ5_1;
    case GgmlType::kQ2_K:
      return DType::kQ2_K;
    case GgmlType::kQ3_K:
      return DType::kQ3_K;
    case GgmlType::kQ5_K:
      return DType::kQ5_K;
    case GgmlType::kQ6_K:
      return DType::kQ6_K;
    case GgmlType::kIQ4_NL:
      return DType::kIQ4_NL;
    case GgmlType::kIQ4_XS:
      return DType::kIQ4_XS;
  }
  return std::nullopt;
}

GgmlType ggml_type_from_dtype(DType dtype) {
  switch (dtype) {
    case DType::kF32:
      return GgmlType::kF32;
    case DType::kF16:
      return GgmlType::kF16;
    case DType::kBF16:
      return GgmlType::kBF16;
    case DType::kQ8_0:
    case DType::kW8A8:  // Q8_0 blocks whose scales repeat along a row
      return GgmlType::kQ8_0;
    case DType::kQ4_0:
      return GgmlType::kQ4_0;
    case DType::kQ4_1:
      return GgmlType::kQ4_1;
    case DType::kQ4_K:
      return GgmlType::kQ4_K;
    case DType::kQ5_0:
      return GgmlType::kQ5_0;
    case DType::kQ5_1:
      return GgmlType::kQ5_1;
    case DType::kQ2_K:
      return GgmlType::kQ2_K;
    case DType::kQ3_K:
      return GgmlType::kQ3_K;
    case DType::kQ5_K:
      return GgmlType::kQ5_K;
    case DType::kQ6_K:
      return GgmlType::kQ6_K;
    case DType::kIQ4_NL:
      return GgmlType::kIQ4_NL;
    case DType::kIQ4_XS:
      return GgmlType::kIQ4_XS;
    case DType::kFP8:
      throw std::invalid_argument(
          "GGUF cannot hold fp8 weights (llama.cpp has no FP8 type): write them as a safetensors "
          "checkpoint (--format safetensors)");
    case DType::kI8:  // KV cache formats, never in a model file
    case DType::kF8E4M3:
      break;
  }
  throw std::invalid_argument(std::string("GGUF cannot hold a tensor of dtype ") +
                              dtype_name(dtype) + " (a KV cache format)");
}

uint32_t gguf_file_type(DType dtype) {
  switch (dtype) {
    case DType::kF32:
      return 0;  // LLAMA_FTYPE_ALL_F32
    case DType::kF16:
      return 1;  // LLAMA_FTYPE_MOSTLY_F16
    case DType::kQ8_0:
    case DType::kW8A8:
      return 7;  // LLAMA_FTYPE_MOSTLY_Q8_0
    case DType::kQ4_0:
      return 2;  // LLAMA_FTYPE_MOSTLY_Q4_0
    case DType::kQ4_1:
      return 3;  // LLAMA_FTYPE_MOSTLY_Q4_1
    case DType::kQ4_K:
      return 14;  // LLAMA_FTYPE_MOSTLY_Q4_K_S: Q4_K throughout
    case DType::kBF16:
      return 32;  // LLAMA_FTYPE_MOSTLY_BF16
    case DType::kQ5_0:
      return 8;  // LLAMA_FTYPE_MOSTLY_Q5_0
    case DType::kQ5_1:
      return 9;  // LLAMA_FTYPE_MOSTLY_Q5_1
    case DType::kQ2_K:
      return 10;  // LLAMA_FTYPE_MOSTLY_Q2_K
    case DType::kQ3_K:
      return 11;  // LLAMA_FTYPE_MOSTLY_Q3_K_S
    case DType::kQ5_K:
      return 16;  // LLAMA_FTYPE_MOSTLY_Q5_K_S
    case DType::kQ6_K:
      return 18;  // LLAMA_FTYPE_MOSTLY_Q6_K
    case DType::kIQ4_NL:
      return 25;  // LLAMA_FTYPE_MOSTLY_IQ4_NL
    case DType::kIQ4_XS:
      return 30;  // LLAMA_FTYPE_MOSTLY_IQ4_XS
    case DType::kFP8:
    case DType::kI8:
    case DType::kF8E4M3:
      break;
  }
  return 0;
}

}  // namespace infergate
