// A model's rotary frequencies from its config: rope_theta, head_dim and rope_scaling, each type
// as Hugging Face transformers defines it (modeling_rope_utils), except `dynamic`, which follows
// vLLM: one NTK-scaled base for the whole extended context rather than one recomputed per
// sequence length, so that keys in the KV cache never need re-rotating.
#pragma once

#include <vector>

#include "engine/model/model_config.h"
#include "kernels/rope_frequencies.h"

namespace infergate {

// The config must be valid (ModelConfig::validate).
RopeFrequencies rope_frequencies(const ModelConfig& c);

// The YaRN factor on cos and sin: rope_scaling.attention_factor, else 0.1 * ln(factor) + 1.
double yarn_attention_factor(const RopeScaling& s);

// The NTK base `dynamic` turns rope_theta into: theta * (factor^2 - factor + 1)^(d / (d - 2)).
double dynamic_ntk_base(const ModelConfig& c);

// Llama 3's scaling as per-pair frequency divisors: the form llama.cpp's converter writes to a
// GGUF's rope_freqs tensor. For rope_scaling type llama3 only.
std::vector<float> llama3_frequency_factors(const ModelConfig& c);

}  // namespace infergate
