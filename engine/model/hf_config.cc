#include "engine/model/hf_config.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>

#include "common/io/json_excerpt.h"
#include "common/io/json_text.h"
#include "engine/model/hf_rope_scaling.h"
#include "engine/model/model_load_error.h"

namespace infergate {

namespace {

using nlohmann::json;

constexpr int64_t kMaxField = int64_t(1) << 24;

struct ArchInfo {
  const char* hf_class;
  const char* model_type;  // our ModelConfig::architecture, and HF's model_type
  double rope_theta;
  double rms_norm_eps;
  int max_position_embeddings;
};

// transformers' defaults for fields a config.json may omit.
constexpr ArchInfo kArchs[] = {
    {"LlamaForCausalLM", "llama", 10000.0, 1e-6, 2048},
    {"MistralForCausalLM", "mistral", 10000.0, 1e-6, 4096 * 32},
    {"Qwen2ForCausalLM", "qwen2", 10000.0, 1e-6, 32768},
    {"Qwen3ForCausalLM", "qwen3", 10000.0, 1e-6, 32768},
    {"MixtralForCausalLM", "mixtral", 1e6, 1e-5, 4096 * 32},
};

// Field readers: a missing required field or a wrong type names the field.
class Fields {
 public:
  Fields(const json& j, std::string file) : j_(j), file_(std::move(file)) {}

  const json* find(const char* key) const {
    const auto it = j_.find(key);
    return it == j_.end() || it->is_null() ? nullptr : &*it;
  }
  int integer(const char* key, std::optional<int> fallback = std::nullopt) const {
    const json* v = find(key);
    if (!v) {
      if (fallback) return *fallback;
      throw ModelLoadError(file_, std::string("missing field '") + key + "'");
    }
    return checked_integer(key, *v);
  }
  int checked_integer(const char* key, const json& v) const {
    if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > kMaxField) {
      throw ModelLoadError(file_, std::string("field '") + key +
                                      "' must be a non-negative integer, got " + json_excerpt(v));
    }
    return int(v.get<int64_t>());
  }
  // A float hyper-parameter: finite and > 0 also after rounding to float (1e39 is inf).
  float positive_number(const char* key, double fallback) const {
    const json* v = find(key);
    if (!v) return float(fallback);
    const float x = v->is_number() ? v->get<float>() : 0.0f;
    if (!v->is_number() || !std::isfinite(x) || !(x > 0)) {
      throw ModelLoadError(file_, std::string("field '") + key +
                                      "' must be a finite number > 0, got " + json_excerpt(*v));
    }
    return x;
  }
  bool boolean(const char* key, bool fallback) const {
    const json* v = find(key);
    if (!v) return fallback;
    if (!v->is_boolean()) {
      throw ModelLoadError(file_, std::string("field '") + key + "' must be true or false");
    }
    return v->get<bool>();
  }
  // bos/eos ids: an integer, a list (Llama 3 lists several eos ids; the first is used) or null.
  int token_id(const char* key, int fallback) const {
    const json* v = find(key);
    if (v && v->is_array() && !v->empty()) v = &(*v)[0];
    return v ? checked_integer(key, *v) : fallback;
  }
  const std::string& file() const { return file_; }

 private:
  const json& j_;
  std::string file_;
};

const ArchInfo& find_arch(const json& j, const std::string& file) {
  const auto it = j.find("architectures");
  if (it == j.end() || !it->is_array() || it->empty() || !(*it)[0].is_string()) {
    throw ModelLoadError(file, "missing field 'architectures' (a list of class names)");
  }
  const std::string name = (*it)[0].get<std::string>();
  for (const ArchInfo& a : kArchs) {
    if (name == a.hf_class) return a;
  }
  throw ModelLoadError(file, "unsupported architecture '" + name +
                                 "' (supported: LlamaForCausalLM, MistralForCausalLM, "
                                 "Qwen2ForCausalLM, Qwen3ForCausalLM, MixtralForCausalLM)");
}

void check_unsupported(const Fields& f) {
  if (const json* act = f.find("hidden_act"); act && *act != "silu") {
    throw ModelLoadError(f.file(), "unsupported hidden_act " + json_excerpt(*act) + " (only silu)");
  }
}

// Mistral and Mixtral: sliding_window (null: none). Qwen2 and Qwen3: only with
// use_sliding_window, and then on layers max_window_layers and up (transformers' layer_types);
// a window on some layers but not others is refused.
void read_sliding_window(const Fields& f, ModelConfig& c) {
  const bool qwen = c.architecture == "qwen2" || c.architecture == "qwen3";
  if (qwen && !f.boolean("use_sliding_window", false)) return;
  const int window = f.integer("sliding_window", 0);
  if (window == 0 || !qwen) {
    c.sliding_window = window;
    return;
  }
  const int from = f.integer("max_window_layers", qwen ? 28 : 0);
  if (from >= c.num_layers) return;  // no layer slides
  if (from > 0) {
    throw ModelLoadError(f.file(), "unsupported max_window_layers " + std::to_string(from) +
                                       " of " + std::to_string(c.num_layers) +
                                       " layers (a sliding window on some layers only; "
                                       "supported: 0, or >= num_hidden_layers)");
  }
  c.sliding_window = window;
}

void read_moe(const Fields& f, ModelConfig& c) {
  c.moe.num_experts = f.integer("num_local_experts", 8);
  c.moe.top_k = f.integer("num_experts_per_tok", 2);
  c.moe.expert_intermediate_size = c.intermediate_size;  // Mixtral: the per-expert width
  c.moe.shared_expert_intermediate_size = f.integer("shared_expert_intermediate_size", 0);
  c.moe.normalize_top_k = f.boolean("norm_topk_prob", true);
  c.intermediate_size = 0;
}

// Shortest decimal that reads back as the same float, so config.json shows 1e-05, not
// 9.999999747378752e-06.
double shortest(float v) {
  for (int precision = 6; precision < 10; ++precision) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.*g", precision, double(v));
    const double d = std::strtod(buf, nullptr);
    if (float(d) == v) return d;
  }
  return double(v);
}

const char* torch_dtype(DType dtype) {
  switch (dtype) {
    case DType::kF16:
      return "float16";
    case DType::kBF16:
      return "bfloat16";
    default:
      return "float32";
  }
}

}  // namespace

ModelConfig parse_hf_config(const std::string& json_text, const std::string& file) {
  json j;
  try {
    j = parse_json_text(json_text);
  } catch (const JsonTextError& e) {
    throw ModelLoadError(file, std::string("not JSON ") + e.what());
  }
  if (!j.is_object()) throw ModelLoadError(file, "not a JSON object");
  const ArchInfo& arch = find_arch(j, file);
  const Fields f(j, file);
  check_unsupported(f);
  ModelConfig c;
  c.architecture = arch.model_type;
  if (const json* n = f.find("_name_or_path"); n && n->is_string()) c.name = n->get<std::string>();
  c.vocab_size = f.integer("vocab_size");
  c.hidden_size = f.integer("hidden_size");
  c.num_layers = f.integer("num_hidden_layers");
  c.num_heads = f.integer("num_attention_heads");
  c.intermediate_size = f.integer("intermediate_size");
  if (c.num_heads == 0) throw ModelLoadError(file, "field 'num_attention_heads' is 0");
  c.num_kv_heads = f.integer("num_key_value_heads", c.num_heads);
  c.head_dim = f.integer("head_dim", c.hidden_size / c.num_heads);
  c.rope_theta = f.positive_number("rope_theta", arch.rope_theta);
  for (const char* key : {"rope_scaling", "rope_parameters"}) {
    if (const json* s = f.find(key)) read_hf_rope_scaling(*s, key, file, c);
  }
  c.rms_norm_eps = f.positive_number("rms_norm_eps", arch.rms_norm_eps);
  c.max_position_embeddings = f.integer("max_position_embeddings", arch.max_position_embeddings);
  c.tie_word_embeddings = f.boolean("tie_word_embeddings", false);
  c.attention_bias = c.architecture == "qwen2" || f.boolean("attention_bias", false);
  c.qk_norm = c.architecture == "qwen3";
  read_sliding_window(f, c);
  c.bos_token_id = f.token_id("bos_token_id", c.bos_token_id);
  c.eos_token_id = f.token_id("eos_token_id", c.eos_token_id);
  if (c.architecture == "mixtral") read_moe(f, c);
  try {
    c.validate();
  } catch (const std::invalid_argument& e) {
    throw ModelLoadError(file, e.what());
  }
  return c;
}

std::string hf_architecture(const ModelConfig& c) {
  if (c.is_moe()) return "MixtralForCausalLM";
  if (c.qk_norm) return "Qwen3ForCausalLM";
  // q/k/v biases with a sliding window: Qwen2 has both (Llama neither window nor o-free biases).
  if (c.attention_bias && (c.architecture == "qwen2" || c.sliding_window > 0)) {
    return "Qwen2ForCausalLM";
  }
  // transformers' Llama has no sliding window; Mistral's is the Llama with one.
  if ((c.architecture == "mistral" || c.sliding_window > 0) && !c.attention_bias) {
    return "MistralForCausalLM";
  }
  return "LlamaForCausalLM";
}

std::string hf_config_json(const ModelConfig& c, DType dtype) {
  const std::string cls = hf_architecture(c);
  std::string model_type = "llama";
  for (const ArchInfo& a : kArchs) {
    if (cls == a.hf_class) model_type = a.model_type;
  }
  json j = {
      {"architectures", json::array({cls})},
      {"model_type", model_type},
      {"_name_or_path", c.name},
      {"vocab_size", c.vocab_size},
      {"hidden_size", c.hidden_size},
      {"intermediate_size", c.is_moe() ? c.moe.expert_intermediate_size : c.intermediate_size},
      {"num_hidden_layers", c.num_layers},
      {"num_attention_heads", c.num_heads},
      {"num_key_value_heads", c.num_kv_heads},
      {"head_dim", c.head_dim},
      {"hidden_act", "silu"},
      {"max_position_embeddings", c.max_position_embeddings},
      {"rms_norm_eps", shortest(c.rms_norm_eps)},
      {"rope_theta", shortest(c.rope_theta)},
      {"tie_word_embeddings", c.tie_word_embeddings},
      {"attention_bias", c.attention_bias},
      {"bos_token_id", c.bos_token_id},
      {"eos_token_id", c.eos_token_id},
      {"torch_dtype", torch_dtype(dtype)},
      {"use_cache", true}};
  if (c.sliding_window > 0) {
    j["sliding_window"] = c.sliding_window;
    if (model_type == "qwen2" || model_type == "qwen3") {
      j["use_sliding_window"] = true;
      j["max_window_layers"] = 0;
    }
  }
  if (c.rope_scaling.type != "none" || !c.rope_scaling.freq_factors.empty()) {
    j["rope_scaling"] = hf_rope_scaling_json(c.rope_scaling);
  }
  if (c.is_moe()) {
    j["num_local_experts"] = c.moe.num_experts;
    j["num_experts_per_tok"] = c.moe.top_k;
    j["norm_topk_prob"] = c.moe.normalize_top_k;
    if (c.moe.shared_expert_intermediate_size > 0) {
      j["shared_expert_intermediate_size"] = c.moe.shared_expert_intermediate_size;
    }
  }
  return j.dump(2) + "\n";
}

}  // namespace infergate
