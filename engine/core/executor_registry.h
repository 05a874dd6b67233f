// How an Engine gets the executors whose code lives outside the engine library: the multi-rank
// one (engine/parallel/, needs MPI) and the GPU one (engine/cuda/, needs CUDA). The composition
// root (cli/main.cc) registers the factories its build has; an Engine whose config asks for one
// calls it, and gets a clear error when the build lacks it.
#pragma once

#include <functional>
#include <memory>

#include "engine/core/engine_config.h"
#include "engine/core/executor.h"
#include "engine/model/model_weights.h"

namespace infergate {

enum class ExecutorKind {
  kParallel,  // world_size() > 1: ranks under mpirun (docs/distributed.md)
  kCuda,      // backend "cuda" (docs/cuda.md)
};

using ExecutorFactory = std::function<std::unique_ptr<Executor>(
    const ModelWeights& weights, const EngineConfig& config, int num_kv_blocks)>;

// A null factory unregisters.
void register_executor(ExecutorKind kind, ExecutorFactory factory);
// Throws std::invalid_argument saying why when no factory of that kind is registered (a build
// without MPI or without CUDA).
std::unique_ptr<Executor> make_executor(ExecutorKind kind, const ModelWeights& weights,
                                        const EngineConfig& config, int num_kv_blocks);

}  // namespace infergate
