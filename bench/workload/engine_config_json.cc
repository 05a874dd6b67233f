#include "bench/workload/engine_config_json.h"

#include <stdexcept>

#include "bench/workload/workload_error.h"
#include "bench/workload/workload_limits.h"

namespace infergate {

namespace {

// EngineConfig::validate() says "engine config: FIELD = VALUE (allowed: ALLOWED)"; restate it
// at $.target.engine.FIELD in the workload's words, or keep it whole at the engine object.
WorkloadError engine_complaint(const JsonObjectReader& r, const std::string& message) {
  const std::string prefix = "engine config: ", marker = " (allowed: ";
  const size_t equals = message.find(" = ");
  const size_t allowed = message.find(marker);
  if (message.rfind(prefix, 0) != 0 || equals == std::string::npos ||
      allowed == std::string::npos || allowed < equals || message.back() != ')') {
    return WorkloadError(r.file(), r.path(), "", "", message);
  }
  const std::string field = message.substr(prefix.size(), equals - prefix.size());
  const std::string value = message.substr(equals + 3, allowed - equals - 3);
  const size_t begin = allowed + marker.size();
  const std::string rule = message.substr(begin, message.size() - 1 - begin);
  return WorkloadError::not_allowed(r.file(), r.path_of(field), value, rule);
}

}  // namespace

EngineConfig read_engine_config(JsonObjectReader& r) {
  EngineConfig c;
  c.weight_dtype =
      r.get_choice("weight_dtype", c.weight_dtype, {"auto", "f32", "f16", "bf16", "q8_0"});
  c.kv_cache_dtype = parse_dtype(
      r.get_choice("kv_cache_dtype", dtype_name(c.kv_cache_dtype), {"f32", "f16", "bf16"}));
  c.block_size = r.get_int("block_size", c.block_size);
  c.paged_kv = r.get_bool("paged_kv", c.paged_kv);
  c.prefix_caching = r.get_bool("prefix_caching", c.prefix_caching);
  c.chunked_prefill = r.get_bool("chunked_prefill", c.chunked_prefill);
  c.continuous_batching = r.get_bool("continuous_batching", c.continuous_batching);
  c.max_num_seqs = r.get_int("max_num_seqs", c.max_num_seqs);
  c.max_num_batched_tokens = r.get_int("max_num_batched_tokens", c.max_num_batched_tokens);
  c.max_model_len = r.get_int("max_model_len", c.max_model_len);
  c.fit_max_model_len = r.get_bool("fit_max_model_len", c.fit_max_model_len);
  c.kv_cache_bytes = r.get_int64("kv_cache_bytes", c.kv_cache_bytes);
  c.num_kv_blocks = r.get_int("num_kv_blocks", c.num_kv_blocks);
  c.num_threads = r.get_int("num_threads", c.num_threads);
  c.seed = r.get_uint64("seed", c.seed);
  c.backend = r.get_choice("backend", c.backend, {"cpu", "cuda"});
  c.cuda_gemm = r.get_choice("cuda_gemm", c.cuda_gemm, {"cublas", "infergate"});
  c.cuda_sampling = r.get_bool("cuda_sampling", c.cuda_sampling);
  c.cuda_graphs = r.get_bool("cuda_graphs", c.cuda_graphs);
  c.tensor_parallel = r.get_int("tensor_parallel", c.tensor_parallel);
  c.pipeline_parallel = r.get_int("pipeline_parallel", c.pipeline_parallel);
  c.expert_parallel = r.get_int("expert_parallel", c.expert_parallel);
  c.pipeline_micro_batches = r.get_int("pipeline_micro_batches", c.pipeline_micro_batches);
  c.pipeline_stage_layers = r.get_int_list("pipeline_stage_layers", c.pipeline_stage_layers);
  c.comm_timeout_s = r.get_double("comm_timeout_s", c.comm_timeout_s);
  if (r.has("debug")) {
    JsonObjectReader debug = r.child("debug");
    c.debug_inject_decode_delay_us =
        debug.get_int64("inject_decode_delay_us", c.debug_inject_decode_delay_us);
    debug.finish();
  }
  r.finish();
  // A deadline past a day is no deadline, and seconds beyond that overflow the clock's ns.
  r.check(c.comm_timeout_s <= kMaxTimeoutS, "comm_timeout_s",
          "must be > 0 and <= " + std::to_string(int64_t(kMaxTimeoutS)) + " (seconds)");
  try {
    c.validate();
  } catch (const std::invalid_argument& e) {
    throw engine_complaint(r, e.what());
  }
  return c;
}

nlohmann::json engine_config_to_json(const EngineConfig& c) {
  nlohmann::json j = {{"weight_dtype", c.weight_dtype},
                      {"kv_cache_dtype", dtype_name(c.kv_cache_dtype)},
                      {"block_size", c.block_size},
                      {"paged_kv", c.paged_kv},
                      {"prefix_caching", c.prefix_caching},
                      {"chunked_prefill", c.chunked_prefill},
                      {"continuous_batching", c.continuous_batching},
                      {"max_num_seqs", c.max_num_seqs},
                      {"max_num_batched_tokens", c.max_num_batched_tokens},
                      {"max_model_len", c.max_model_len},
                      {"kv_cache_bytes", c.kv_cache_bytes},
                      {"num_kv_blocks", c.num_kv_blocks},
                      {"num_threads", c.num_threads},
                      {"seed", c.seed},
                      {"debug", {{"inject_decode_delay_us", c.debug_inject_decode_delay_us}}}};
  // Written only when set, so workloads without it keep their hashes.
  if (c.fit_max_model_len) j["fit_max_model_len"] = true;
  // Only multi-rank configs spell out the parallel fields: single-rank workloads keep the
  // resolved form, and so the hash, their committed baselines were measured with.
  // Likewise the backend: CPU workloads keep their hashes.
  if (c.on_cuda()) {
    j["backend"] = c.backend;
    j["cuda_gemm"] = c.cuda_gemm;
    j["cuda_sampling"] = c.cuda_sampling;
    j["cuda_graphs"] = c.cuda_graphs;
  }
  if (c.world_size() > 1) {
    j["tensor_parallel"] = c.tensor_parallel;
    j["pipeline_parallel"] = c.pipeline_parallel;
    j["expert_parallel"] = c.expert_parallel;
    j["pipeline_micro_batches"] = c.pipeline_micro_batches;
    j["pipeline_stage_layers"] = c.pipeline_stage_layers;
    j["comm_timeout_s"] = c.comm_timeout_s;
  }
  return j;
}

}  // namespace infergate
