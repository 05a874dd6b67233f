#include "engine/core/engine_config.h"

#include <algorithm>
#include <stdexcept>

#include "engine/core/cuda_limits.h"
#include "engine/core/engine_config_fields.h"

namespace infergate {

namespace {

void require(bool ok, const std::string& field, const std::string& value,
             const std::string& allowed) {
  if (!ok) {
    throw std::invalid_argument("engine config: " + field + " = " + value +
                                " (allowed: " + allowed + ")");
  }
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// The enum whose name is `name` among `names` (listed in the enum's order).
template <class Enum>
Enum parse_enum(const std::vector<std::string>& names, const std::string& field,
                const std::string& name) {
  const auto it = std::find(names.begin(), names.end(), name);
  require(it != names.end(), field, name, joined(names));
  return Enum(it - names.begin());
}

}  // namespace

const std::vector<std::string>& backend_names() {
  static const std::vector<std::string> names = {"cpu", "cuda"};
  return names;
}
const std::vector<std::string>& weight_dtype_names() {
  static const std::vector<std::string> names = {"auto", "f32",  "f16",  "bf16",   "q8_0",   "q4_0",
                                                 "q4_1", "q4_k", "w8a8", "q5_0",   "q5_1",   "q2_k",
                                                 "q3_k", "q5_k", "q6_k", "iq4_nl", "iq4_xs", "fp8"};
  return names;
}
const std::vector<std::string>& cuda_gemm_names() {
  static const std::vector<std::string> names = {"cublas", "infergate"};
  return names;
}

const std::vector<std::string>& speculative_method_names() {
  static const std::vector<std::string> names = {"none", "ngram", "draft_model", "self"};
  return names;
}

const std::string& backend_name(Backend b) { return backend_names().at(size_t(b)); }
const std::string& weight_dtype_name(WeightDtype d) { return weight_dtype_names().at(size_t(d)); }
const std::string& cuda_gemm_name(CudaGemm g) { return cuda_gemm_names().at(size_t(g)); }
const std::string& speculative_method_name(SpeculativeMethod m) {
  return speculative_method_names().at(size_t(m));
}

Backend parse_backend(const std::string& name) {
  return parse_enum<Backend>(backend_names(), "backend", name);
}
WeightDtype parse_weight_dtype(const std::string& name) {
  return parse_enum<WeightDtype>(weight_dtype_names(), "weight_dtype", name);
}
CudaGemm parse_cuda_gemm(const std::string& name) {
  return parse_enum<CudaGemm>(cuda_gemm_names(), "cuda_gemm", name);
}
SpeculativeMethod parse_speculative_method(const std::string& name) {
  return parse_enum<SpeculativeMethod>(speculative_method_names(), "speculative.method", name);
}

void EngineConfig::validate() const {
  for (const EngineConfigField& f : engine_config_fields()) {
    require(field_in_range(f, *this), f.key, field_value_text(f, *this), field_rule(f));
  }
  // The rules that join fields.
  require(!prefix_caching || paged_kv, "prefix_caching", "true",
          "false when paged_kv is false (prefix caching shares paged blocks)");
  require(kv_cache_bytes > 0 || num_kv_blocks > 0, "kv_cache_bytes", std::to_string(kv_cache_bytes),
          "> 0 unless num_kv_blocks is set");
  const int group = parallel_group_size();
  require(tensor_parallel == 1 || tensor_parallel == group, "tensor_parallel",
          std::to_string(tensor_parallel), ">= 1, and 1 or expert_parallel when both are above 1");
  require(expert_parallel == 1 || expert_parallel == group, "expert_parallel",
          std::to_string(expert_parallel), ">= 1, and 1 or tensor_parallel when both are above 1");
  const bool stages_ok = pipeline_stage_layers.empty() ||
                         (int(pipeline_stage_layers.size()) == pipeline_parallel &&
                          std::all_of(pipeline_stage_layers.begin(), pipeline_stage_layers.end(),
                                      [](int n) { return n >= 1; }));
  require(stages_ok, "pipeline_stage_layers",
          std::to_string(pipeline_stage_layers.size()) + " stage(s)",
          "empty (even split) or pipeline_parallel counts, each >= 1");
  require(!cuda_graphs || on_cuda(), "cuda_graphs", "true", "false unless backend is cuda");
  require(prompt_lookup_min <= prompt_lookup_max, "speculative.prompt_lookup_min",
          std::to_string(prompt_lookup_min), "at most speculative.prompt_lookup_max");
  const bool named_draft = speculative_method == SpeculativeMethod::kDraftModel;
  require(named_draft == !speculative_draft_model.empty(), "speculative.draft_model",
          "\"" + speculative_draft_model.substr(0, 200) + "\"",
          "a model (preset name, .gguf file or safetensors directory) exactly when "
          "speculative.method is draft_model");
  require(speculative_draft_model.size() <= 4096, "speculative.draft_model",
          std::to_string(speculative_draft_model.size()) + " characters", "at most 4096");
  require(speculative_method == SpeculativeMethod::kSelf || speculative_draft_layers == 0,
          "speculative.draft_layers", std::to_string(speculative_draft_layers),
          "0 unless speculative.method is self");
  if (on_cuda()) check_cuda_limits(CudaRun(this));
}

}  // namespace infergate
