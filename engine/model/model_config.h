// Hyper-parameters of a decoder-only transformer (Llama-2/3, Mistral, Qwen2, Mixtral family).
// Names follow Hugging Face's config.json so loaders map fields one to one.
#pragma once

#include <cstdint>
#include <string>

namespace infergate {

struct MoeConfig {
  int num_experts = 0;  // 0: dense FFN
  int top_k = 0;        // experts per token
  int expert_intermediate_size = 0;
  int shared_expert_intermediate_size = 0;  // 0: no shared expert
  bool normalize_top_k = true;              // Mixtral renormalizes the top-k router weights
};

struct ModelConfig {
  std::string name = "custom";
  std::string architecture = "llama";  // llama | mistral | qwen2 | mixtral
  int vocab_size = 32000;
  int hidden_size = 288;
  int num_layers = 6;
  int num_heads = 6;
  int num_kv_heads = 6;
  int head_dim = 48;            // hidden_size / num_heads unless given
  int intermediate_size = 768;  // dense SwiGLU width
  float rope_theta = 10000.0f;
  float rms_norm_eps = 1e-5f;
  int max_position_embeddings = 2048;
  bool tie_word_embeddings = false;
  bool attention_bias = false;  // Qwen2: biases on q, k and v projections
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
