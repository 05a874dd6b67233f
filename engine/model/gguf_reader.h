// Loads a llama.cpp GGUF file (v3; v2 shares its layout) into ModelWeights, memory-mapped.
// Architectures: "llama" (Llama, Mistral, and Mixtral-style MoE via llama.expert_count) and
// "qwen2". Tensor types F32, F16, BF16, Q8_0 and Q4_0; matrices are borrowed from the mapping in
// their stored type. Norm weights and biases become fp32 copies, and for arch "llama" the Q/K
// rows are un-permuted into Hugging Face order (owned copies; see rotary_permute.h).
#pragma once

#include <string>

#include "engine/model/model_weights.h"

namespace infergate {

// Throws ModelLoadError naming `path` and the problem (truncated, bad magic, unsupported
// version/architecture/tensor type, missing or misshapen tensor, inconsistent metadata).
ModelWeights read_gguf(const std::string& path);

}  // namespace infergate
