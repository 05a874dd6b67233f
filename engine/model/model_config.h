// Hyper-parameters of a decoder-only transformer (Llama-2/3, Mistral, Qwen2, Mixtral family).
// Names follow Hugging Face's config.json so loaders map fields one to one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace infergate {

struct MoeConfig {
  int num_experts = 0;  // 0: dense FFN
  int top_k = 0;        // experts per token
  int expert_intermediate_size = 0;
  int shared_expert_intermediate_size = 0;  // 0: no shared expert
  bool normalize_top_k = true;              // Mixtral renormalizes the top-k router weights
};

// RoPE frequency scaling as config.json's rope_scaling names it (engine/model/rope_scaling.h
// computes the frequencies; docs/model-formats.md says which definition each type follows).
struct RopeScaling {
  std::string type = "none";  // none | linear | dynamic | llama3 | yarn
  double factor = 1.0;
  int original_max_position_embeddings = 0;  // llama3 (required), yarn (0: max_position_emb.)
  double low_freq_factor = 1.0, high_freq_factor = 4.0;  // llama3
  double beta_fast = 32.0, beta_slow = 1.0;              // yarn
  double attention_factor = 0.0;  // yarn's factor on cos/sin; 0: 0.1 * ln(factor) + 1
  // llama.cpp's rope_freqs tensor: pair i's frequency is divided by freq_factors[i] (a GGUF's
  // form of Llama 3's scaling); empty when absent.
  std::vector<float> freq_factors;
  bool operator==(const RopeScaling&) const = default;
};

struct ModelConfig {
  std::string name = "custom";
  std::string architecture = "llama";  // llama | mistral | qwen2 | qwen3 | mixtral
  int vocab_size = 32000;
  int hidden_size = 288;
  int num_layers = 6;
  int num_heads = 6;
  int num_kv_heads = 6;
  int head_dim = 48;            // hidden_size / num_heads unless given
  int intermediate_size = 768;  // dense SwiGLU width
  float rope_theta = 10000.0f;
  RopeScaling rope_scaling;
  float rms_norm_eps = 1e-5f;
  int max_position_embeddings = 2048;
  bool tie_word_embeddings = false;
  bool attention_bias = false;  // Qwen2: biases on q, k and v projections
  bool qk_norm = false;         // Qwen3: RMSNorm over each q and k head before RoPE
  // > 0: each position attends to its last sliding_window positions, itself included (Mistral
  // v0.1; Qwen2/3 with use_sliding_window), and the KV blocks behind every window are freed.
  int sliding_window = 0;
  int bos_token_id = 1;
  int eos_token_id = 2;
  MoeConfig moe;

  bool is_moe() const { return moe.num_experts > 0; }
  int q_size() const { return num_heads * head_dim; }
  int kv_size() const { return num_kv_heads * head_dim; }
  // Throws std::invalid_argument naming the first inconsistent field.
  void validate() const;
  int64_t num_parameters() const;
  // KV bytes per token per the DOMAIN.md formula: 2 x layers x kv_heads x head_dim x bytes.
  int64_t kv_bytes_per_token(int bytes_per_element) const;
};

// Built-in synthetic presets: "tiny", "small", "moe-tiny". Throws listing the names otherwise.
ModelConfig preset_config(const std::string& name);
const char* preset_names();

}  // namespace infergate
