// What the cuda backend cannot run yet, in one table: every combination is refused at start,
// by name, from here (docs/cuda.md prints the same table; a test holds the two together). A
// row looks only at what is known when it is asked: the engine config when a workload is read,
// the model once its weights are.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/engine_config.h"
#include "engine/model/model_config.h"

namespace infergate {

// Everything a refusal may depend on; what is not known yet is absent.
struct CudaRun {
  explicit CudaRun(const EngineConfig* engine_config, const ModelConfig* model_config = nullptr,
                   std::optional<DType> weights_dtype = std::nullopt)
      : engine(engine_config), model(model_config), weights(weights_dtype) {}

  const EngineConfig* engine;
  const ModelConfig* model;
  std::optional<DType> weights;  // the projections' dtype as loaded (before conversion)
};

struct CudaLimit {
  std::string key;      // the setting as users write it (engine key or model field)
  std::string allowed;  // what the cuda backend takes
  std::string why;      // what is missing on the GPU
  // The refused value, or nothing when this run is fine (or its inputs are not known yet).
  std::function<std::optional<std::string>(const CudaRun&)> refused;
};

// Experts the GPU router holds (kernels/cuda/moe_routing.h's kMoeMaxExperts, checked there).
constexpr int kCudaMaxExperts = 256;

const std::vector<CudaLimit>& cuda_limits();

// Throws std::invalid_argument at the first row that refuses `run`, as "engine config: KEY =
// VALUE (allowed: ALLOWED with backend cuda; WHY)" ("backend cuda: " for a model field). Call
// only for a cuda run.
void check_cuda_limits(const CudaRun& run);

// The table as docs/cuda.md holds it (markdown, one row per limit).
std::string render_cuda_limits_table();

}  // namespace infergate
