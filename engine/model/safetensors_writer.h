// Exports ModelWeights as a Hugging Face checkpoint directory: config.json (the matching
// architectures entry and fields, see hf_config.h) and one model.safetensors with tensors named
// as ModelWeights::for_each_tensor names them. F32, F16 and BF16 tensors are written as they
// are; Q8_0 tensors (no safetensors dtype) are dequantized to F32, which holds their values
// exactly, so a reload computes the same logits. Each file is written atomically, tensors
// before config.json, so a failed export never leaves a config pointing at missing data.
#pragma once

#include <string>

#include "engine/model/model_weights.h"

namespace infergate {

// Creates `dir` if needed; throws std::runtime_error naming the file on I/O errors.
void write_safetensors(const ModelWeights& weights, const std::string& dir);

}  // namespace infergate
