// The cuda backend's limits table (engine/core/cuda_limits.h): every row refuses its
// combination by name, a run inside every limit passes, and docs/cuda.md holds the table.
#include "engine/core/cuda_limits.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <iostream>
#include <sstream>

#include "engine/model/model_config.h"

namespace infergate {
namespace {

EngineConfig on_cuda() {
  EngineConfig c;
  c.backend = Backend::kCuda;
  return c;
}

std::string refusal(const CudaRun& run) {
  try {
    check_cuda_limits(run);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("a cuda run inside every limit passes") {
  const EngineConfig c = on_cuda();
  const ModelConfig m = preset_config("tiny");
  CHECK(refusal(CudaRun(&c, &m, DType::kF32)).empty());
  CHECK_NOTHROW(c.validate());
}

TEST_CASE("every engine setting the cuda backend cannot run is refused when the config is read") {
  EngineConfig c = on_cuda();
  c.tensor_parallel = 2;
  c.pipeline_parallel = 2;
  CHECK_NOTHROW(c.validate());  // NCCL within a stage, MPI between stages
  c.cuda_graphs = true;
  CHECK_THROWS_WITH(c.validate(), Catch::Contains("engine config: cuda_graphs = true (allowed: "
                                                  "false with more than one rank"));
  c = on_cuda();
  c.expert_parallel = 2;
  CHECK_NOTHROW(c.validate());  // rows over NCCL, counts over MPI
  c = on_cuda();
  c.speculative_method = SpeculativeMethod::kNgram;
  CHECK_NOTHROW(c.validate());  // drafts are verified on the host's logits
  c = on_cuda();
  c.weight_dtype = WeightDtype::kQ4_K;
  CHECK_THROWS_WITH(c.validate(), Catch::Contains("weight_dtype = q4_k (allowed: auto, f32, f16, "
                                                  "bf16 with backend cuda; it has no "
                                                  "block-format GEMM)"));
  c = on_cuda();
  c.kv_cache_dtype = DType::kF8E4M3;
  CHECK_THROWS_WITH(c.validate(), Catch::Contains("kv_cache_dtype = fp8_e4m3 (allowed: f32, f16, "
                                                  "bf16 with backend cuda"));
  c.backend = Backend::kCpu;
  CHECK_NOTHROW(c.validate());  // the CPU runs each of them
}

TEST_CASE("what depends on the model is refused once it is known") {
  EngineConfig c = on_cuda();
  ModelConfig m = preset_config("tiny");
  c.cuda_gemm = CudaGemm::kInfergate;
  CHECK_NOTHROW(c.validate());  // the weights' dtype is not known yet
  CHECK(refusal(CudaRun(&c, &m, DType::kF32))
            .starts_with("engine config: cuda_gemm = infergate (allowed: cublas with f32"));
  CHECK(refusal(CudaRun(&c, &m, DType::kBF16)).empty());
  c = on_cuda();
  m.sliding_window = 64;
  CHECK(refusal(CudaRun(&c, &m)).empty());  // both attention kernels take the window
  m = preset_config("moe-tiny");
  c.cuda_graphs = true;
  CHECK(refusal(CudaRun(&c, &m))
            .starts_with(
                "engine config: cuda_graphs = true (allowed: false for mixture-of-experts models"));
  c.cuda_graphs = false;
  CHECK(refusal(CudaRun(&c, &m)).empty());
  m.moe.num_experts = 300;
  CHECK(refusal(CudaRun(&c, &m))
            .starts_with("backend cuda: model moe.num_experts = 300 (allowed: at most 256"));
}

TEST_CASE("docs/cuda.md holds the limits table") {
  std::ifstream in(std::string(INFERGATE_SOURCE_DIR) + "/docs/cuda.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string table = render_cuda_limits_table();
  const bool holds = text.str().find(table) != std::string::npos;
  if (!holds) std::cerr << "docs/cuda.md should hold this table, from cuda_limits.cc:\n" << table;
  CHECK(holds);
}

}  // namespace
}  // namespace infergate
