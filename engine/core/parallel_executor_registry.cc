#include "engine/core/parallel_executor_registry.h"

#include <stdexcept>
#include <string>

namespace infergate {

namespace {

ParallelExecutorFactory& registered() {
  static ParallelExecutorFactory factory;
  return factory;
}

}  // namespace

void register_parallel_executor(ParallelExecutorFactory factory) {
  registered() = std::move(factory);
}

std::unique_ptr<Executor> make_parallel_executor(const ModelWeights& weights,
                                                 const EngineConfig& config, int num_kv_blocks) {
  if (!registered()) {
    throw std::invalid_argument(
        "engine config asks for " + std::to_string(config.world_size()) +
        " ranks (tensor_parallel x pipeline_parallel x expert_parallel), but this program has no "
        "multi-rank executor: build with MPI (libopenmpi-dev) and run under mpirun "
        "(docs/distributed.md)");
  }
  return registered()(weights, config, num_kv_blocks);
}

}  // namespace infergate
