// Exports ModelWeights as a Hugging Face checkpoint directory: config.json (the matching
// architectures entry and fields, see hf_config.h) and one model.safetensors with tensors named
// as ModelWeights::for_each_tensor names them. F32, F16 and BF16 tensors are written as they
// are; fp8 matrices as F8_E4M3 codes with `weight_scale_inv` per 128x128 block and a
// quantization_config saying so (hf_fp8.h; the embedding and output head as F32); other
// block-format tensors (no safetensors dtype) are dequantized to F32, which holds their values
// exactly, so a reload computes the same logits. Each file is written atomically, tensors
// before config.json, so a failed export never leaves a config pointing at missing data.
#pragma once

#include <cstdint>
#include <string>

#include "engine/model/model_weights.h"

namespace infergate {

// With awq_group > 0 (`infergate quantize --to int4-g128 --format safetensors`), Q4_1 matrices
// holding group-wise INT4 are written in AutoAWQ's layout (awq_layout.h) and config.json gains
// its quantization_config.
//
// Creates `dir` if needed; throws std::runtime_error naming the file on I/O errors, and
// std::invalid_argument (before writing anything) for a matrix the AWQ layout cannot hold, or an
// fp8 matrix whose scales are not one per 128x128 block.
void write_safetensors(const ModelWeights& weights, const std::string& dir, int64_t awq_group = 0);

}  // namespace infergate
