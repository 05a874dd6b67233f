// Loads a Hugging Face checkpoint directory: config.json plus model.safetensors, or the shards
// listed by model.safetensors.index.json, memory-mapped. Architectures LlamaForCausalLM,
// MistralForCausalLM, Qwen2ForCausalLM and MixtralForCausalLM; dtypes F32, F16 and BF16
// (matrices borrowed in their stored dtype; norms, biases and the MoE router become fp32).
// The tokenizer is not read: the vocabulary is synthetic_vocabulary(vocab_size) with the
// config's bos/eos ids, enough for token-id workloads and for re-export.
#pragma once

#include <string>

#include "engine/model/model_weights.h"

namespace infergate {

// Throws ModelLoadError naming the directory or file and the problem.
ModelWeights read_safetensors(const std::string& dir);

}  // namespace infergate
