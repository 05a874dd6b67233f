// How an Engine gets its multi-rank executor while the engine library stays free of MPI: the
// composition root (cli/main.cc) registers engine/parallel/'s factory when built with MPI, and
// an Engine whose config asks for more than one rank calls it.
#pragma once

#include <functional>
#include <memory>

#include "engine/core/engine_config.h"
#include "engine/core/executor.h"
#include "engine/model/model_weights.h"

namespace infergate {

using ParallelExecutorFactory = std::function<std::unique_ptr<Executor>(
    const ModelWeights& weights, const EngineConfig& config, int num_kv_blocks)>;

void register_parallel_executor(ParallelExecutorFactory factory);
// Throws std::invalid_argument saying why when no factory is registered (a build without MPI).
std::unique_ptr<Executor> make_parallel_executor(const ModelWeights& weights,
                                                 const EngineConfig& config, int num_kv_blocks);

}  // namespace infergate
