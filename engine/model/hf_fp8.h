// FP8 checkpoints as Hugging Face tools write them: each quantized linear layer is `weight`
// (F8_E4M3 codes, [out, in]) beside a scale tensor that multiplies it, at one of three
// granularities:
//   quant_method "fp8" with weight_block_size [bn, bk] (DeepSeek-V3, Qwen3-FP8; transformers'
//     FineGrainedFP8): `weight_scale_inv`, [ceil(out / bn), ceil(in / bk)];
//   quant_method "fp8" without it (AutoFP8): `weight_scale`, one per tensor;
//   quant_method "fbgemm_fp8" (Meta's Llama 3.1 FP8): `weight_scale`, [out, 1];
//   quant_method "compressed-tensors", format "float-quantized" (llm-compressor), 8-bit float
//     weights with strategy "tensor", "channel" or "block" (block_structure [bn, bk]):
//     `weight_scale` of those shapes.
// Layers a checkpoint leaves unquantized (modules_to_not_convert, ignore) are plain tensors,
// told apart by their dtype. Activation scales (`input_scale`) are read past: activations stay
// fp32 here (fp8_linear.h), as in vLLM's weight-only FP8 on GPUs without FP8 arithmetic.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/model/tensor_table.h"

namespace infergate {

struct Fp8Scheme {
  enum class Granularity { kTensor, kChannel, kBlock };
  Granularity granularity = Granularity::kTensor;
  int64_t block_rows = 0, block_cols = 0;  // kBlock only
  std::string scale_name;                  // "weight_scale_inv" or "weight_scale"
};

// The scheme of a quantization_config whose quant_method is "fp8", "fbgemm_fp8" or
// "compressed-tensors"; throws ModelLoadError naming `config_path`, the field and the allowed
// values for anything else (a column block that is not a multiple of 128 included: one scale
// per 128 values of a row is what DType::kFP8 holds).
Fp8Scheme parse_fp8_scheme(const nlohmann::json& quantization_config,
                           const std::string& config_path);
bool is_fp8_quant_method(const std::string& quant_method);

// `base`.weight ([out, in] F8_E4M3) and its scale as a DType::kFP8 tensor, codes as they are.
// Throws ModelLoadError naming the tensor and the rule: a scale of the wrong shape, a
// non-finite or negative scale, a NaN code, in not a multiple of 128.
Tensor take_fp8_linear(TensorTable& t, const std::string& base, int64_t out, int64_t in,
                       const Fp8Scheme& scheme);

}  // namespace infergate
