// The engine's executor for backend "cuda": the model and its paged KV cache on one GPU
// (device 0), driven by the same scheduler and batches as the CPU executor. Logits come back to
// the host, where the engine samples exactly as on the CPU.
#pragma once

#include <memory>
#include <string>

#include "engine/core/engine_config.h"
#include "engine/core/executor.h"
#include "engine/model/model_weights.h"

namespace infergate {

// Registers the factory with the engine (engine/core/executor_registry.h); the composition root
// calls it once in a build with CUDA.
void register_cuda_executor();

// Throws std::runtime_error naming the reason when no CUDA device is usable (no driver, no GPU),
// and std::invalid_argument for a configuration the cuda backend cannot run.
std::unique_ptr<Executor> make_cuda_executor(const ModelWeights& weights,
                                             const EngineConfig& config, int num_kv_blocks);

}  // namespace infergate
