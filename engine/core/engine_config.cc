#include "engine/core/engine_config.h"

#include <algorithm>
#include <stdexcept>

namespace infergate {

namespace {
void require(bool ok, const std::string& field, const std::string& value,
             const std::string& allowed) {
  if (!ok) {
    throw std::invalid_argument("engine config: " + field + " = " + value +
                                " (allowed: " + allowed + ")");
  }
}
}  // namespace

void EngineConfig::validate() const {
  require(weight_dtype == "auto" || weight_dtype == "f32" || weight_dtype == "f16" ||
              weight_dtype == "bf16" || weight_dtype == "q8_0",
          "weight_dtype", weight_dtype, "auto, f32, f16, bf16, q8_0");
  require(kv_cache_dtype != DType::kQ8_0, "kv_cache_dtype", dtype_name(kv_cache_dtype),
          "f32, f16, bf16");
  require(block_size >= 1 && block_size <= 1024, "block_size", std::to_string(block_size),
          "1..1024");
  require(!prefix_caching || paged_kv, "prefix_caching", "true",
          "false when paged_kv is false (prefix caching shares paged blocks)");
  require(max_num_seqs >= 1, "max_num_seqs", std::to_string(max_num_seqs), ">= 1");
  require(max_num_batched_tokens >= 1, "max_num_batched_tokens",
          std::to_string(max_num_batched_tokens), ">= 1");
  require(max_model_len >= 0, "max_model_len", std::to_string(max_model_len), ">= 0");
  require(kv_cache_bytes > 0 || num_kv_blocks > 0, "kv_cache_bytes", std::to_string(kv_cache_bytes),
          "> 0 unless num_kv_blocks is set");
  require(num_kv_blocks >= 0, "num_kv_blocks", std::to_string(num_kv_blocks), ">= 0");
  require(num_threads >= 0 && num_threads <= kMaxNumThreads, "num_threads",
          std::to_string(num_threads),
          "0.." + std::to_string(kMaxNumThreads) + " (0: all hardware threads)");
  require(debug_inject_decode_delay_us >= 0 && debug_inject_decode_delay_us <= 10'000'000,
          "debug.inject_decode_delay_us", std::to_string(debug_inject_decode_delay_us),
          "0..10000000");
  const int group = parallel_group_size();
  require(tensor_parallel >= 1 && (tensor_parallel == 1 || tensor_parallel == group),
          "tensor_parallel", std::to_string(tensor_parallel),
          ">= 1, and 1 or expert_parallel when both are above 1");
  require(expert_parallel >= 1 && (expert_parallel == 1 || expert_parallel == group),
          "expert_parallel", std::to_string(expert_parallel),
          ">= 1, and 1 or tensor_parallel when both are above 1");
  require(pipeline_parallel >= 1, "pipeline_parallel", std::to_string(pipeline_parallel), ">= 1");
  require(pipeline_micro_batches >= 0, "pipeline_micro_batches",
          std::to_string(pipeline_micro_batches), ">= 0");
  require(comm_timeout_s > 0, "comm_timeout_s", std::to_string(comm_timeout_s), "> 0");
  const bool stages_ok = pipeline_stage_layers.empty() ||
                         (int(pipeline_stage_layers.size()) == pipeline_parallel &&
                          std::all_of(pipeline_stage_layers.begin(), pipeline_stage_layers.end(),
                                      [](int n) { return n >= 1; }));
  require(stages_ok, "pipeline_stage_layers",
          std::to_string(pipeline_stage_layers.size()) + " stage(s)",
          "empty (even split) or pipeline_parallel counts, each >= 1");
  require(backend == "cpu" || backend == "cuda", "backend", backend, "cpu, cuda");
  require(cuda_gemm == "cublas" || cuda_gemm == "infergate", "cuda_gemm", cuda_gemm,
          "cublas, infergate");
  require(!on_cuda() || world_size() == 1, "backend", backend,
          "cpu when more than one rank is asked for (the cuda backend runs on one GPU)");
  require(!cuda_graphs || on_cuda(), "cuda_graphs", "true", "false unless backend is cuda");
  require(!on_cuda() || weight_dtype != "q8_0", "weight_dtype", weight_dtype,
          "auto, f32, f16, bf16 with backend cuda (it has no q8_0 GEMM)");
}

}  // namespace infergate
