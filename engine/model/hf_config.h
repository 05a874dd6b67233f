// Hugging Face config.json <-> ModelConfig for LlamaForCausalLM, MistralForCausalLM,
// Qwen2ForCausalLM and MixtralForCausalLM. Defaults follow transformers' config classes.
#pragma once

#include <string>

#include "engine/model/model_config.h"
#include "kernels/tensor.h"

namespace infergate {

// Parses config.json text; `file` names it in ModelLoadError messages ("missing field
// 'hidden_size'", "unsupported architecture", "unsupported rope_scaling", ...).
ModelConfig parse_hf_config(const std::string& json_text, const std::string& file);

// The HF class that computes what `config` describes (e.g. a "qwen2" config without
// attention biases is written as LlamaForCausalLM, which HF Qwen2 could not express).
std::string hf_architecture(const ModelConfig& config);

// config.json text for `config`, declaring `dtype` as torch_dtype.
std::string hf_config_json(const ModelConfig& config, DType dtype);

}  // namespace infergate
