#include "engine/model/hf_rope_scaling.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "common/io/json_excerpt.h"
#include "engine/model/model_load_error.h"

namespace infergate {

namespace {

using nlohmann::json;

struct TypeKeys {
  const char* type;
  std::vector<const char*> required, optional;
};

// transformers' required and optional keys per rope_type (modeling_rope_utils's validation),
// less those this engine does not compute (YaRN's mscale, mscale_all_dim: DeepSeek's).
const std::vector<TypeKeys>& type_keys() {
  static const std::vector<TypeKeys> k = {
      {"default", {}, {}},
      {"linear", {"factor"}, {}},
      {"dynamic", {"factor"}, {"original_max_position_embeddings"}},
      {"llama3",
       {"factor", "low_freq_factor", "high_freq_factor", "original_max_position_embeddings"},
       {}},
      {"yarn",
       {"factor"},
       {"original_max_position_embeddings", "attention_factor", "beta_fast", "beta_slow",
        "truncate"}},
  };
  return k;
}

std::string joined(const std::vector<const char*>& names) {
  std::string out;
  for (const char* n : names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out.empty() ? "none" : out;
}

class RopeFields {
 public:
  RopeFields(const json& j, std::string key, std::string file)
      : j_(j), key_(std::move(key)), file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& what) const { throw ModelLoadError(file_, what); }
  std::string name(const std::string& field) const { return key_ + "." + field; }

  std::string type() const {
    const json* t = find("rope_type");
    if (!t) t = find("type");
    if (!t) fail(key_ + " has no 'rope_type' (or 'type')");
    if (!t->is_string()) fail(name("rope_type") + " must be a string, got " + json_excerpt(*t));
    return t->get<std::string>();
  }
  const TypeKeys& keys_of(const std::string& type) const {
    for (const TypeKeys& k : type_keys()) {
      if (type == k.type) return k;
    }
    fail("unsupported " + name("rope_type") + " '" + type +
         "' (supported: default, linear, dynamic, llama3, yarn)");
  }
  // Every key is one the type reads: a required or optional one, or the type itself.
  void check_keys(const TypeKeys& k, bool allow_theta) const {
    for (auto it = j_.begin(); it != j_.end(); ++it) {
      const std::string& key = it.key();
      bool known = key == "rope_type" || key == "type" || (allow_theta && key == "rope_theta");
      for (const auto* list : {&k.required, &k.optional}) {
        for (const char* n : *list) known = known || key == n;
      }
      if (!known) {
        fail("unsupported key '" + name(key) + "' for rope_type " + k.type +
             " (it reads: " + joined(k.required) +
             (k.optional.empty() ? "" : "; optionally " + joined(k.optional)) + ")");
      }
    }
    for (const char* n : k.required) {
      if (!find(n)) {
        fail(name(n) + " is missing (rope_type " + std::string(k.type) +
             " needs: " + joined(k.required) + ")");
      }
    }
  }
  double number(const char* field, double fallback) const {
    const json* v = find(field);
    if (!v) return fallback;
    const double x = v->is_number() ? v->get<double>() : NAN;
    if (!std::isfinite(x) || !(x > 0)) {
      fail(name(field) + " must be a finite number > 0, got " + json_excerpt(*v));
    }
    return x;
  }
  int integer(const char* field) const {
    const json* v = find(field);
    if (!v) return 0;
    if (!v->is_number_integer() || v->get<int64_t>() <= 0 || v->get<int64_t>() > (1 << 24)) {
      fail(name(field) + " must be an integer in [1, 16777216], got " + json_excerpt(*v));
    }
    return int(v->get<int64_t>());
  }
  void require_truncate() const {
    const json* v = find("truncate");
    if (v && *v != true) fail(name("truncate") + " = " + json_excerpt(*v) + " (only true)");
  }

 private:
  const json* find(const char* field) const {
    const auto it = j_.find(field);
    return it == j_.end() || it->is_null() ? nullptr : &*it;
  }
  const json& j_;
  std::string key_, file_;
};

}  // namespace

void read_hf_rope_scaling(const json& value, const std::string& key, const std::string& file,
                          ModelConfig& c) {
  if (!value.is_object()) {
    throw ModelLoadError(file, key + " must be an object, got " + json_excerpt(value));
  }
  const RopeFields f(value, key, file);
  const std::string type = f.type();
  const TypeKeys& keys = f.keys_of(type);
  const bool parameters = key == "rope_parameters";
  f.check_keys(keys, parameters);
  if (parameters) c.rope_theta = float(f.number("rope_theta", c.rope_theta));
  RopeScaling& s = c.rope_scaling;
  s = RopeScaling();
  s.type = type == "default" ? "none" : type;
  s.factor = f.number("factor", 1.0);
  s.original_max_position_embeddings = f.integer("original_max_position_embeddings");
  s.low_freq_factor = f.number("low_freq_factor", s.low_freq_factor);
  s.high_freq_factor = f.number("high_freq_factor", s.high_freq_factor);
  s.beta_fast = f.number("beta_fast", s.beta_fast);
  s.beta_slow = f.number("beta_slow", s.beta_slow);
  s.attention_factor = f.number("attention_factor", 0.0);
  f.require_truncate();
}

json hf_rope_scaling_json(const RopeScaling& s) {
  if (!s.freq_factors.empty()) {
    throw std::invalid_argument(
        "config.json cannot express per-pair RoPE frequency factors (a GGUF's rope_freqs "
        "tensor); export this model as GGUF");
  }
  if (s.type == "none") return nullptr;
  json j = {{"rope_type", s.type}, {"factor", s.factor}};
  if (s.original_max_position_embeddings > 0 && s.type != "linear") {
    j["original_max_position_embeddings"] = s.original_max_position_embeddings;
  }
  if (s.type == "llama3") {
    j["low_freq_factor"] = s.low_freq_factor;
    j["high_freq_factor"] = s.high_freq_factor;
  }
  if (s.type == "yarn") {
    j["beta_fast"] = s.beta_fast;
    j["beta_slow"] = s.beta_slow;
    if (s.attention_factor > 0) j["attention_factor"] = s.attention_factor;
  }
  return j;
}

}  // namespace infergate
