#include "engine/model/model_config.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace infergate {

namespace {
void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("model config: " + what);
}

std::string text(float v) {  // "1e-06", "nan", "inf": std::to_string would print 0.000001
  std::ostringstream out;
  out << v;
  return out.str();
}
}  // namespace

void ModelConfig::validate() const {
  require(vocab_size > 0, "vocab_size must be > 0, got " + std::to_string(vocab_size));
  require(hidden_size > 0, "hidden_size must be > 0");
  require(num_layers > 0, "num_layers must be > 0");
  require(num_heads > 0 && num_kv_heads > 0, "num_heads and num_kv_heads must be > 0");
  require(num_kv_heads <= num_heads && num_heads % num_kv_heads == 0,
          "num_heads (" + std::to_string(num_heads) + ") must be a multiple of num_kv_heads (" +
              std::to_string(num_kv_heads) + ")");
  require(head_dim > 0 && head_dim % 2 == 0,
          "head_dim must be even and > 0, got " + std::to_string(head_dim));
  require(std::isfinite(rope_theta) && rope_theta > 0,
          "rope_theta must be a finite number > 0, got " + text(rope_theta));
  require(std::isfinite(rms_norm_eps) && rms_norm_eps > 0,
          "rms_norm_eps must be a finite number > 0, got " + text(rms_norm_eps));
  require(max_position_embeddings > 0, "max_position_embeddings must be > 0");
  if (is_moe()) {
    require(moe.top_k > 0 && moe.top_k <= moe.num_experts,
            "moe.top_k must be in [1, num_experts=" + std::to_string(moe.num_experts) + "]");
    require(moe.expert_intermediate_size > 0, "moe.expert_intermediate_size must be > 0");
  } else {
    require(intermediate_size > 0, "intermediate_size must be > 0");
  }
}

int64_t ModelConfig::num_parameters() const {
  const int64_t d = hidden_size;
  int64_t attn = d * q_size() + 2 * d * kv_size() + int64_t(q_size()) * d;
  if (attention_bias) attn += q_size() + 2 * kv_size();
  int64_t ffn = 0;
  if (is_moe()) {
    ffn = int64_t(moe.num_experts) * 3 * d * moe.expert_intermediate_size +
          int64_t(moe.num_experts) * d + 3 * d * moe.shared_expert_intermediate_size;
  } else {
    ffn = 3 * d * intermediate_size;
  }
  const int64_t per_layer = attn + ffn + 2 * d;
  const int64_t embed = int64_t(vocab_size) * d;
  return embed * (tie_word_embeddings ? 1 : 2) + per_layer * num_layers + d;
}

int64_t ModelConfig::kv_bytes_per_token(int bytes_per_element) const {
  return 2LL * num_layers * kv_size() * bytes_per_element;
}

const char* preset_names() { return "tiny, small, moe-tiny"; }

ModelConfig preset_config(const std::string& name) {
  ModelConfig c;
  c.name = name;
  if (name == "tiny") {  // llama2.c's stories15M shape
    c.hidden_size = 288, c.num_layers = 6, c.num_heads = 6, c.num_kv_heads = 6;
    c.head_dim = 48, c.intermediate_size = 768, c.max_position_embeddings = 1024;
    c.tie_word_embeddings = true;
  } else if (name == "small") {  // ~110M parameters, grouped-query attention
    c.hidden_size = 768, c.num_layers = 12, c.num_heads = 12, c.num_kv_heads = 4;
    c.head_dim = 64, c.intermediate_size = 2048, c.max_position_embeddings = 2048;
  } else if (name == "moe-tiny") {  // Mixtral-style: 8 experts, top-2
    c.architecture = "mixtral";
    c.hidden_size = 288, c.num_layers = 4, c.num_heads = 6, c.num_kv_heads = 2;
    c.head_dim = 48, c.intermediate_size = 0, c.max_position_embeddings = 1024;
    c.moe.num_experts = 8, c.moe.top_k = 2, c.moe.expert_intermediate_size = 384;
  } else {
    throw std::invalid_argument("unknown model preset '" + name + "' (allowed: " + preset_names() +
                                ")");
  }
  c.validate();
  return c;
}

}  // namespace infergate
