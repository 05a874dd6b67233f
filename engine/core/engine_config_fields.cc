#include "engine/core/engine_config_fields.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <type_traits>

namespace infergate {

namespace {

using C = EngineConfig;

// kv_cache_dtype holds a DType, but only these hold a KV cache (q8_0 and q4_0 are weight formats;
// int8 and fp8_e4m3 keep a scale per row, kernels/cpu/kv_quant.h).
const std::vector<std::string> kKvDtypes = {"f32", "f16", "bf16", "int8", "fp8_e4m3"};

std::string kv_dtype_get(const C& c) { return dtype_name(c.kv_cache_dtype); }
void kv_dtype_set(C& c, const std::string& name) {
  if (std::find(kKvDtypes.begin(), kKvDtypes.end(), name) == kKvDtypes.end()) {
    throw std::invalid_argument("engine config: kv_cache_dtype = " + name +
                                " (allowed: f32, f16, bf16, int8, fp8_e4m3)");
  }
  c.kv_cache_dtype = parse_dtype(name);
}

std::vector<EngineConfigField> build_fields() {
  std::vector<EngineConfigField> f;
  auto add = [&f](EngineConfigField field) { f.push_back(std::move(field)); };
  add({.key = "weight_dtype",
       .member = "weight_dtype",
       .access =
           ChoiceAccess{[](const C& c) { return weight_dtype_name(c.weight_dtype); },
                        [](C& c, const std::string& n) { c.weight_dtype = parse_weight_dtype(n); }},
       .flag = "weight-dtype",
       .doc = "`auto` keeps the loaded dtype; the others convert every matrix at load (norms, "
              "biases and the MoE router stay fp32; q8_0/q4_0/q4_1/q5_0/q5_1/q6_k/iq4_nl/iq4_xs "
              "quantize as llama.cpp does, q4_k/q2_k/q3_k/q5_k by their own fit, w8a8 per "
              "channel against per-token int8 activations, fp8 as e4m3 with a scale per "
              "128x128 block against fp32 activations; rows that are not whole 256-value "
              "blocks take llama.cpp's 32-value fallback (fp8's not whole 128: bf16); "
              "docs/quantization.md)",
       .choices = weight_dtype_names()});
  add({.key = "kv_cache_dtype",
       .member = "kv_cache_dtype",
       .access = ChoiceAccess{kv_dtype_get, kv_dtype_set},
       .flag = "kv-dtype",
       .doc = "storage of K and V: int8 and fp8_e4m3 keep one fp32 scale per token and KV head "
              "(docs/quantization.md)",
       .choices = kKvDtypes});
  add({.key = "block_size",
       .member = "block_size",
       .access = &C::block_size,
       .flag = "block-size",
       .doc = "tokens per KV block",
       .min = 1,
       .max = 1024});
  add({.key = "paged_kv",
       .member = "paged_kv",
       .access = &C::paged_kv,
       .flag = "no-paged-kv",
       .doc = "false: a **contiguous** cache, each admitted sequence reserves "
              "`ceil(max_model_len / block_size)` consecutive blocks whether it uses them or not "
              "(the flag also turns prefix caching off)"});
  add({.key = "prefix_caching",
       .member = "prefix_caching",
       .access = &C::prefix_caching,
       .flag = "no-prefix-cache",
       .doc = "share full blocks of identical prefixes (requires `paged_kv`)",
       .schema_note = "false when `paged_kv` is false"});
  add({.key = "grammar_jump_forward",
       .member = "grammar_jump_forward",
       .access = &C::grammar_jump_forward,
       .flag = "no-grammar-jump-forward",
       .doc = "structured output proposes the bytes its grammar forces (keys, punctuation) as "
              "draft tokens, verified in one forward (docs/server.md)",
       .written = WrittenWhen::kWhenFalse});
  add({.key = "chunked_prefill",
       .member = "chunked_prefill",
       .access = &C::chunked_prefill,
       .flag = "no-chunked-prefill",
       .doc = "false: a prompt is scheduled whole (then `max_num_batched_tokens` must be >= "
              "`max_model_len`)"});
  add({.key = "continuous_batching",
       .member = "continuous_batching",
       .access = &C::continuous_batching,
       .flag = "static-batching",
       .doc = "false: **static batching**, waiting requests are admitted only when nothing "
              "runs, and the admitted batch runs to completion"});
  add({.key = "max_num_seqs",
       .member = "max_num_seqs",
       .access = &C::max_num_seqs,
       .flag = "max-num-seqs",
       .doc = "running sequences at most",
       .min = 1});
  add({.key = "max_num_batched_tokens",
       .member = "max_num_batched_tokens",
       .access = &C::max_num_batched_tokens,
       .flag = "max-num-batched-tokens",
       .doc = "the per-step token budget shared by prefill chunks and decodes",
       .min = 1});
  add({.key = "max_model_len",
       .member = "max_model_len",
       .access = &C::max_model_len,
       .flag = "max-model-len",
       .doc = "0: the model's `max_position_embeddings`; prompt + output never exceed it",
       .min = 0,
       .schema_note = "0: the model's; the KV pool must hold one such sequence"});
  add({.key = "fit_max_model_len",
       .member = "fit_max_model_len",
       .access = &C::fit_max_model_len,
       .flag = "fit-max-model-len",
       .doc = "true: a KV pool too small for one `max_model_len` sequence lowers "
              "`max_model_len` to what it holds, said on stderr, instead of refusing to start",
       .schema_note = "written to the resolved workload only when true",
       .written = WrittenWhen::kWhenTrue});
  add({.key = "kv_cache_bytes",
       .member = "kv_cache_bytes",
       .access = &C::kv_cache_bytes,
       .flag = "kv-cache-bytes",
       .doc = "size of the KV pool (default 256 MiB), unless `num_kv_blocks` is set",
       .schema_note = "> 0 unless `num_kv_blocks` is set; the pool must fit in physical memory"});
  add({.key = "num_kv_blocks",
       .member = "num_kv_blocks",
       .access = &C::num_kv_blocks,
       .flag = "num-kv-blocks",
       .doc = "explicit pool size in blocks; 0: from `kv_cache_bytes`",
       .min = 0,
       .schema_note = "the pool must fit in physical memory"});
  add({.key = "num_threads",
       .member = "num_threads",
       .access = &C::num_threads,
       .flag = "threads",
       .doc = "CPU worker threads; at most 1024 (`ThreadPool::kMaxThreads`)",
       .min = 0,
       .max = C::kMaxNumThreads,
       .rule_note = " (0: all hardware threads)"});
  add({.key = "seed",
       .member = "seed",
       .access = &C::seed,
       .flag = "seed",
       .doc = "seeds the sampling streams of requests without their own seed",
       .min = 0});
  add({.key = "debug.inject_decode_delay_us",
       .member = "debug_inject_decode_delay_us",
       .access = &C::debug_inject_decode_delay_us,
       .flag = "debug-inject-decode-delay-us",
       .doc = "regression injection (docs/gates.md): every step that decodes at least one "
              "sequence busy-waits this much of its thread's CPU time inside its execute phase "
              "(an NVTX range `inject_decode_delay` marks it), as a slower kernel would; 0 in "
              "real benchmarks. "
              "Workload key `debug.inject_decode_delay_us`",
       .min = 0,
       .max = 10'000'000});
  add({.key = "debug.inject_step_error_every",
       .member = "debug_inject_step_error_every",
       .access = &C::debug_inject_step_error_every,
       .flag = "debug-inject-step-error-every",
       .doc = "fault injection (docs/server.md, \"A failing engine step\"): every Nth step that "
              "executes a batch throws inside its execute phase, as a failing kernel or "
              "allocation would; that step's requests end with finish reason `error` and the "
              "engine goes on; 0 (off) in real benchmarks. "
              "Workload key `debug.inject_step_error_every`",
       .min = 0,
       .max = 1'000'000'000,
       .written = WrittenWhen::kWhenInjectingStepErrors});
  add({.key = "debug.inject_step_error_fatal",
       .member = "debug_inject_step_error_fatal",
       .access = &C::debug_inject_step_error_fatal,
       .flag = "debug-inject-step-error-fatal",
       .doc = "with `debug.inject_step_error_every`: the error comes after the scheduler's "
              "update instead, where the engine's state can no longer be trusted: the engine "
              "stops, every request ends with an error, and `serve` exits 70. "
              "Workload key `debug.inject_step_error_fatal`",
       .written = WrittenWhen::kWhenInjectingStepErrors});
  add({.key = "speculative.method",
       .member = "speculative_method",
       .access = ChoiceAccess{
           [](const C& c) { return speculative_method_name(c.speculative_method); },
           [](C& c, const std::string& n) { c.speculative_method = parse_speculative_method(n); }},
       .flag = "speculative-method",
       .doc = "speculative decoding (docs/speculative.md): `ngram` proposes the tokens that "
              "followed the latest earlier occurrence of the request's last tokens; "
              "`draft_model` drafts them with a smaller model (speculative.draft_model); `self` "
              "with the target's own first layers or a quantized copy; each decode step "
              "verifies them in the same pass (exact: greedy output is the same as without, "
              "sampled output has the same distribution, by rejection sampling). "
              "Workload key `speculative.method`",
       .choices = speculative_method_names(),
       .schema_note = "written to the resolved workload only when not none",
       .written = WrittenWhen::kWhenSpeculating});
  add({.key = "speculative.num_tokens",
       .member = "speculative_num_tokens",
       .access = &C::speculative_num_tokens,
       .flag = "speculative-tokens",
       .doc = "tokens proposed per step at most",
       .min = 1,
       .max = 16,
       .written = WrittenWhen::kWhenSpeculating});
  add({.key = "speculative.prompt_lookup_max",
       .member = "prompt_lookup_max",
       .access = &C::prompt_lookup_max,
       .flag = "prompt-lookup-max",
       .doc = "ngram: the longest suffix matched (tried first)",
       .min = 1,
       .max = 64,
       .written = WrittenWhen::kWhenSpeculating});
  add({.key = "speculative.prompt_lookup_min",
       .member = "prompt_lookup_min",
       .access = &C::prompt_lookup_min,
       .flag = "prompt-lookup-min",
       .doc = "ngram: the shortest suffix matched",
       .min = 1,
       .max = 64,
       .rule_note = ", and at most prompt_lookup_max",
       .written = WrittenWhen::kWhenSpeculating});
  add({.key = "speculative.adaptive",
       .member = "speculative_adaptive",
       .access = &C::speculative_adaptive,
       .flag = "speculative-adaptive",
       .doc = "each request's proposal length adapts to its acceptance: 2 more after a step "
              "whose drafts all stood, 1 fewer after a rejection, within 1..num_tokens",
       .written = WrittenWhen::kWhenTrue});
  add({.key = "speculative.draft_model",
       .member = "speculative_draft_model",
       .access = &C::speculative_draft_model,
       .flag = "draft-model",
       .doc = "draft_model: the draft, a preset name (tiny, small, moe-tiny, with draft_seed), a "
              ".gguf file or a safetensors directory, on the target's vocabulary",
       .schema_note = "required with method draft_model, refused otherwise",
       .written = WrittenWhen::kWhenDraftModel});
  add({.key = "speculative.draft_seed",
       .member = "speculative_draft_seed",
       .access = &C::speculative_draft_seed,
       .flag = "draft-seed",
       .doc = "draft_model: the seed of a synthetic preset draft",
       .written = WrittenWhen::kWhenDraftModel});
  add({.key = "speculative.draft_layers",
       .member = "speculative_draft_layers",
       .access = &C::speculative_draft_layers,
       .flag = "draft-layers",
       .doc = "self: the draft is the target's first N layers, its final norm and LM head (0: "
              "every layer)",
       .min = 0,
       .max = 1024,
       .rule_note = ", and 0 unless method is self",
       .written = WrittenWhen::kWhenDraftModel});
  add({.key = "speculative.draft_weight_dtype",
       .member = "speculative_draft_weight_dtype",
       .access = ChoiceAccess{
           [](const C& c) { return weight_dtype_name(c.speculative_draft_weight_dtype); },
           [](C& c, const std::string& n) {
             c.speculative_draft_weight_dtype = parse_weight_dtype(n);
           }},
       .flag = "draft-weight-dtype",
       .doc = "draft_model, self: the draft's weights converted as weight_dtype converts the "
              "target's (`auto`: as loaded)",
       .choices = weight_dtype_names(),
       .written = WrittenWhen::kWhenDraftModel});
  add({.key = "tensor_parallel",
       .member = "tensor_parallel",
       .access = &C::tensor_parallel,
       .flag = "tensor-parallel",
       .doc = "ranks splitting every layer (Megatron); under `mpirun` only (docs/parallelism.md)",
       .min = 1,
       .rule_note = ", and 1 or expert_parallel when both are above 1",
       .written = WrittenWhen::kWhenMultiRank});
  add({.key = "pipeline_parallel",
       .member = "pipeline_parallel",
       .access = &C::pipeline_parallel,
       .flag = "pipeline-parallel",
       .doc = "pipeline stages (layers split evenly unless `pipeline_stage_layers` says)",
       .min = 1,
       .schema_note = "at most the model's layers",
       .written = WrittenWhen::kWhenMultiRank});
  add({.key = "expert_parallel",
       .member = "expert_parallel",
       .access = &C::expert_parallel,
       .flag = "expert-parallel",
       .doc = "ranks splitting a MoE model's experts",
       .min = 1,
       .rule_note = ", and 1 or tensor_parallel when both are above 1",
       .schema_note = "MoE models only",
       .written = WrittenWhen::kWhenMultiRank});
  add({.key = "pipeline_micro_batches",
       .member = "pipeline_micro_batches",
       .access = &C::pipeline_micro_batches,
       .flag = "micro-batches",
       .doc = "micro-batches a step is cut into for the pipeline; 0: one per stage",
       .min = 0,
       .schema_note = "0: one per stage",
       .written = WrittenWhen::kWhenMultiRank});
  add({.key = "pipeline_stage_layers",
       .member = "pipeline_stage_layers",
       .access = &C::pipeline_stage_layers,
       .flag = "pipeline-layers",
       .doc = "layers of each stage, in order (flag value e.g. 5,1); empty: an even split",
       .schema_note = "empty (an even split) or one count per stage, each >= 1, adding up to "
                      "the model's layers",
       .written = WrittenWhen::kWhenMultiRank});
  add({.key = "comm_timeout_s",
       .member = "comm_timeout_s",
       .access = &C::comm_timeout_s,
       .flag = "comm-timeout",
       .doc = "seconds: the deadline of every collective; a dead or hung rank ends the job "
              "naming the operation",
       .min = 0,
       .min_exclusive = true,
       .schema_note = "at most 86400",
       .written = WrittenWhen::kWhenMultiRank});
  add({.key = "backend",
       .member = "backend",
       .access = ChoiceAccess{[](const C& c) { return backend_name(c.backend); },
                              [](C& c, const std::string& n) { c.backend = parse_backend(n); }},
       .flag = "backend",
       .doc = "where the forward runs: the CPU, or a GPU (device 0, or one per rank under "
              "mpirun; docs/cuda.md)",
       .choices = backend_names(),
       .schema_note =
           "`cuda`: what it cannot run yet (block-format weights, `int8` / `fp8_e4m3` KV, CUDA "
           "graphs with more than one rank, ...) is refused from one table, docs/cuda.md",
       .written = WrittenWhen::kWhenCuda});
  add({.key = "cuda_gemm",
       .member = "cuda_gemm",
       .access = ChoiceAccess{[](const C& c) { return cuda_gemm_name(c.cuda_gemm); },
                              [](C& c, const std::string& n) { c.cuda_gemm = parse_cuda_gemm(n); }},
       .flag = "cuda-gemm",
       .doc = "the cuda backend's projections: cuBLAS, or our tensor-core GEMM (f16/bf16 "
              "weights)",
       .choices = cuda_gemm_names(),
       .schema_note = "`infergate` needs f16 or bf16 weights",
       .written = WrittenWhen::kWhenCuda});
  add({.key = "cuda_sampling",
       .member = "cuda_sampling",
       .access = &C::cuda_sampling,
       .flag = "host-sampling",
       .doc = "the cuda backend samples on the GPU and copies back only the tokens; false: "
              "every sampling row's logits go to the host and `sample_token` runs there, as on "
              "the CPU",
       .written = WrittenWhen::kWhenCuda});
  add({.key = "cuda_graphs",
       .member = "cuda_graphs",
       .access = &C::cuda_graphs,
       .flag = "cuda-graphs",
       .doc = "the cuda backend replays decode-only steps from CUDA graphs, one per batch size "
              "padded to a power of two (dense models; docs/cuda.md \"CUDA graphs\")",
       .schema_note = "true only with `backend` `cuda`",
       .written = WrittenWhen::kWhenCuda});
  return f;
}

std::string number_text(double v) {
  std::ostringstream text;
  text << std::setprecision(15) << v;  // 10000000, not 1e+07
  return text.str();
}

std::string join(const std::vector<std::string>& names, const std::string& quote) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + quote + n + quote;
  return out;
}

std::string rule_text(const EngineConfigField& field, const std::string& quote) {
  if (std::holds_alternative<ChoiceAccess>(field.access)) return join(field.choices, quote);
  std::string rule;
  if (std::isfinite(field.min) && std::isfinite(field.max)) {
    rule = number_text(field.min) + ".." + number_text(field.max);
  } else if (std::isfinite(field.min)) {
    rule = (field.min_exclusive ? "> " : ">= ") + number_text(field.min);
  } else if (std::isfinite(field.max)) {
    rule = "<= " + number_text(field.max);
  }
  return rule.empty() ? rule : rule + field.rule_note;
}

// The default as docs/engine.md shows it (`auto`) or as JSON (`"auto"`).
std::string default_text(const EngineConfigField& field, bool as_json) {
  const std::string text = field_value_text(field, EngineConfig());
  if (std::holds_alternative<ChoiceAccess>(field.access)) {
    return as_json ? "`\"" + text + "\"`" : "`" + text + "`";
  }
  if (std::holds_alternative<double EngineConfig::*>(field.access)) {
    return number_text(EngineConfig().*std::get<double EngineConfig::*>(field.access));
  }
  if (std::holds_alternative<std::string EngineConfig::*>(field.access)) {
    return "`\"" + text + "\"`";
  }
  return text;
}

// A bool's flag sets the opposite of its default; every other flag takes a value.
std::string flag_text(const EngineConfigField& field) {
  if (std::holds_alternative<bool EngineConfig::*>(field.access)) {
    return "`--" + field.flag + "`";
  }
  const char* metavar = std::holds_alternative<ChoiceAccess>(field.access)             ? "NAME"
                        : std::holds_alternative<double EngineConfig::*>(field.access) ? "X"
                        : std::holds_alternative<std::vector<int> EngineConfig::*>(field.access)
                            ? "N,N,..."
                        : std::holds_alternative<std::string EngineConfig::*>(field.access) ? "TEXT"
                                                                                            : "N";
  return "`--" + field.flag + " " + metavar + "`";
}

}  // namespace

const std::vector<EngineConfigField>& engine_config_fields() {
  static const std::vector<EngineConfigField> fields = build_fields();
  return fields;
}

const EngineConfigField& engine_config_field(const std::string& key) {
  for (const EngineConfigField& f : engine_config_fields()) {
    if (f.key == key) return f;
  }
  throw std::out_of_range("engine config: no field " + key);
}

std::string field_rule(const EngineConfigField& field) { return rule_text(field, ""); }

bool field_in_range(const EngineConfigField& field, const EngineConfig& c) {
  if (const auto* choice = std::get_if<ChoiceAccess>(&field.access)) {
    const std::string name = choice->get(c);
    return std::find(field.choices.begin(), field.choices.end(), name) != field.choices.end();
  }
  return std::visit(
      [&](const auto& access) {
        using Access = std::decay_t<decltype(access)>;
        if constexpr (std::is_same_v<Access, bool EngineConfig::*> ||
                      std::is_same_v<Access, std::vector<int> EngineConfig::*> ||
                      std::is_same_v<Access, std::string EngineConfig::*> ||
                      std::is_same_v<Access, ChoiceAccess>) {
          return true;  // every value of the type goes (names are checked above)
        } else {
          const double value = double(c.*access);
          const bool above_min = field.min_exclusive ? value > field.min : value >= field.min;
          return above_min && value <= field.max;
        }
      },
      field.access);
}

std::string field_value_text(const EngineConfigField& field, const EngineConfig& c) {
  struct Text {
    const EngineConfig& c;
    std::string operator()(bool EngineConfig::*m) const { return c.*m ? "true" : "false"; }
    std::string operator()(int EngineConfig::*m) const { return std::to_string(c.*m); }
    std::string operator()(int64_t EngineConfig::*m) const { return std::to_string(c.*m); }
    std::string operator()(uint64_t EngineConfig::*m) const { return std::to_string(c.*m); }
    // std::to_string, as validate()'s messages always printed it.
    std::string operator()(double EngineConfig::*m) const { return std::to_string(c.*m); }
    std::string operator()(std::vector<int> EngineConfig::*m) const {
      std::string out;
      for (int n : c.*m) out += (out.empty() ? "" : ",") + std::to_string(n);
      return "[" + out + "]";
    }
    std::string operator()(std::string EngineConfig::*m) const { return c.*m; }
    std::string operator()(const ChoiceAccess& a) const { return a.get(c); }
  };
  return std::visit(Text{c}, field.access);
}

std::string field_type_name(const EngineConfigField& field) {
  const FieldMember& a = field.access;
  if (std::holds_alternative<bool EngineConfig::*>(a)) return "bool";
  if (std::holds_alternative<double EngineConfig::*>(a)) return "number";
  if (std::holds_alternative<std::vector<int> EngineConfig::*>(a)) return "array of integers";
  if (std::holds_alternative<ChoiceAccess>(a)) return "string";
  if (std::holds_alternative<std::string EngineConfig::*>(a)) return "string";
  return "integer";
}

bool field_is_written(const EngineConfigField& field, const EngineConfig& c) {
  switch (field.written) {
    case WrittenWhen::kAlways:
      return true;
    case WrittenWhen::kWhenTrue:
      return c.*std::get<bool EngineConfig::*>(field.access);
    case WrittenWhen::kWhenFalse:
      return !(c.*std::get<bool EngineConfig::*>(field.access));
    case WrittenWhen::kWhenCuda:
      return c.on_cuda();
    case WrittenWhen::kWhenMultiRank:
      return c.world_size() > 1;
    case WrittenWhen::kWhenSpeculating:
      return c.speculates();
    case WrittenWhen::kWhenDraftModel:
      return c.drafts_with_model();
    case WrittenWhen::kWhenInjectingStepErrors:
      return c.debug_inject_step_error_every > 0;
  }
  return true;
}

std::string render_engine_docs_table() {
  std::string out = "| field | default | flag | meaning |\n|---|---|---|---|\n";
  for (const EngineConfigField& f : engine_config_fields()) {
    std::string meaning = f.doc;
    if (!f.choices.empty()) meaning = rule_text(f, "`") + ": " + meaning;
    out += "| `" + f.member + "` | " + default_text(f, false) + " | " + flag_text(f) + " | " +
           meaning + " |\n";
  }
  return out;
}

std::string render_workload_schema_table() {
  std::string out = "| key | type | default | allowed |\n|---|---|---|---|\n";
  for (const EngineConfigField& f : engine_config_fields()) {
    std::string allowed = rule_text(f, "`");
    if (!f.schema_note.empty()) allowed += (allowed.empty() ? "" : "; ") + f.schema_note;
    out += "| `" + f.key + "` | " + field_type_name(f) + " | " + default_text(f, true) + " |" +
           (allowed.empty() ? "" : " " + allowed) + " |\n";
  }
  return out;
}

}  // namespace infergate
