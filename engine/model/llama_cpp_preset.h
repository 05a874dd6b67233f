// llama-quantize's presets (Q4_K_M, Q3_K_S, IQ4_XS, ...): a default block type plus per-tensor
// rules that give some tensors more bits. The rules are llama.cpp's llama_tensor_get_type
// (src/llama-quant.cpp) for the tensors this engine's architectures have, without an importance
// matrix: attn_v and ffn_down of some layers, attn_output, the output head (Q6_K), and Q8_0
// attention for 8-expert models; rows no 256-value block fits take tensor_type_fallback's type.
#pragma once

#include <string>

#include "engine/model/model_weights.h"

namespace infergate {

// A matrix whose rows are not whole 256-value super-blocks takes the 32-value type llama.cpp's
// quantizer gives it instead (tensor_type_fallback): one at least as wide. fp8 rows that are not
// whole 128-value blocks take bf16. Other types, and rows a type divides, are returned as they
// are.
DType row_fallback(DType dtype, int64_t row_length);

// True for a preset name: Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q2_K, Q3_K_S, Q3_K_M, Q3_K_L, Q4_K_S,
// Q4_K_M, Q5_K_S, Q5_K_M, Q6_K, IQ4_NL, IQ4_XS (upper case, as llama-quantize names them).
bool is_llama_cpp_preset(const std::string& name);
const char* llama_cpp_preset_names();

// Converts every matrix (embeddings and LM head included; norms, biases and the MoE router stay
// fp32) to the type the preset gives it. Throws std::invalid_argument for an unknown name.
void apply_llama_cpp_preset(ModelWeights& w, const std::string& preset);

}  // namespace infergate
