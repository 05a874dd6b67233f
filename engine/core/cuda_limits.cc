#include "engine/core/cuda_limits.h"

#include <stdexcept>

namespace infergate {

namespace {

using Refused = std::optional<std::string>;

Refused when(bool refuse, const std::string& value) {
  return refuse ? Refused(value) : std::nullopt;
}

std::vector<CudaLimit> build_limits() {
  std::vector<CudaLimit> t;
  t.push_back(
      {"weight_dtype", "auto, f32, f16, bf16", "it has no block-format GEMM", [](const CudaRun& r) {
         return r.engine ? when(r.engine->weight_dtype >= WeightDtype::kQ8_0,
                                weight_dtype_name(r.engine->weight_dtype))
                         : std::nullopt;
       }});
  t.push_back({"kv_cache_dtype", "f32, f16, bf16",
               "its attention reads no scaled (int8, fp8_e4m3) KV", [](const CudaRun& r) {
                 if (!r.engine) return Refused();
                 const DType d = r.engine->kv_cache_dtype;
                 return when(d != DType::kF32 && d != DType::kF16 && d != DType::kBF16,
                             dtype_name(d));
               }});
  t.push_back({"cuda_gemm", "cublas with f32 weights",
               "our tensor-core GEMM needs weight_dtype f16 or bf16", [](const CudaRun& r) {
                 return r.engine && r.weights ? when(r.engine->cuda_gemm == CudaGemm::kInfergate &&
                                                         *r.weights == DType::kF32,
                                                     "infergate")
                                              : std::nullopt;
               }});
  t.push_back({"model moe.num_experts", "at most " + std::to_string(kCudaMaxExperts),
               "the GPU router keeps a token's expert logits in one warp", [](const CudaRun& r) {
                 return r.model ? when(r.model->moe.num_experts > kCudaMaxExperts,
                                       std::to_string(r.model->moe.num_experts))
                                : std::nullopt;
               }});
  t.push_back({"cuda_graphs", "false with more than one rank",
               "a graph cannot hold the waits of the collectives and of the pipeline's transfers",
               [](const CudaRun& r) {
                 return r.engine ? when(r.engine->cuda_graphs && r.engine->world_size() > 1, "true")
                                 : std::nullopt;
               }});
  t.push_back(
      {"cuda_graphs", "false for mixture-of-experts models",
       "their layers wait for the expert counts on the host mid-step", [](const CudaRun& r) {
         return r.engine && r.model ? when(r.engine->cuda_graphs && r.model->is_moe(), "true")
                                    : std::nullopt;
       }});
  return t;
}

}  // namespace

const std::vector<CudaLimit>& cuda_limits() {
  static const std::vector<CudaLimit> table = build_limits();
  return table;
}

void check_cuda_limits(const CudaRun& run) {
  for (const CudaLimit& l : cuda_limits()) {
    if (const Refused value = l.refused(run)) {
      // Engine keys keep the config's wording, which the workload reader maps to a JSON path.
      const bool engine_key = l.key.find(' ') == std::string::npos;
      throw std::invalid_argument((engine_key ? "engine config: " : "backend cuda: ") + l.key +
                                  " = " + *value + " (allowed: " + l.allowed +
                                  " with backend cuda; " + l.why + ")");
    }
  }
}

std::string render_cuda_limits_table() {
  std::string out = "| setting | allowed with backend cuda | why |\n|---|---|---|\n";
  for (const CudaLimit& l : cuda_limits()) {
    out += "| `" + l.key + "` | " + l.allowed + " | " + l.why + " |\n";
  }
  return out;
}

}  // namespace infergate
