#include "engine/model/model_config.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace infergate {

namespace {
void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("model config: " + what);
}

std::string text(double v) {  // "1e-06", "nan", "inf": std::to_string would print 0.000001
  std::ostringstream out;
  out << v;
  return out.str();
}
bool positive(double v) { return std::isfinite(v) && v > 0; }

void validate_rope_scaling(const RopeScaling& s, int head_dim) {
  const std::string t = s.type;
  require(t == "none" || t == "linear" || t == "dynamic" || t == "llama3" || t == "yarn",
          "rope_scaling type '" + t + "' (allowed: none, linear, dynamic, llama3, yarn)");
  require(t == "none" || (positive(s.factor) && s.factor >= 1.0),
          "rope_scaling.factor must be a finite number >= 1, got " + text(s.factor));
  require(s.original_max_position_embeddings >= 0 &&
              (t != "llama3" || s.original_max_position_embeddings > 0),
          "rope_scaling.original_max_position_embeddings must be > 0");
  if (t == "llama3") {
    require(positive(s.low_freq_factor) && positive(s.high_freq_factor) &&
                s.low_freq_factor < s.high_freq_factor,
            "rope_scaling needs 0 < low_freq_factor < high_freq_factor, got " +
                text(s.low_freq_factor) + " and " + text(s.high_freq_factor));
  }
  if (t == "yarn") {
    require(positive(s.beta_slow) && positive(s.beta_fast) && s.beta_slow < s.beta_fast,
            "rope_scaling needs 0 < beta_slow < beta_fast, got " + text(s.beta_slow) + " and " +
                text(s.beta_fast));
    require(s.attention_factor == 0 || positive(s.attention_factor),
            "rope_scaling.attention_factor must be a finite number > 0");
  }
  if (s.freq_factors.empty()) return;
  require(s.freq_factors.size() == size_t(head_dim / 2),
          "rope_freqs has " + std::to_string(s.freq_factors.size()) + " factors; head_dim / 2 is " +
              std::to_string(head_dim / 2));
  for (float f : s.freq_factors) {
    require(positive(f), "rope_freqs factors must be finite numbers > 0, got " + text(f));
  }
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
  validate_rope_scaling(rope_scaling, head_dim);
  require(std::isfinite(rms_norm_eps) && rms_norm_eps > 0,
          "rms_norm_eps must be a finite number > 0, got " + text(rms_norm_eps));
  require(max_position_embeddings > 0, "max_position_embeddings must be > 0");
  require(sliding_window >= 0, "sliding_window must be >= 0 (0: none)");
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
  if (qk_norm) attn += 2 * head_dim;
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
