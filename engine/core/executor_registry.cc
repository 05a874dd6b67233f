#include "engine/core/executor_registry.h"

#include <map>
#include <stdexcept>
#include <string>

namespace infergate {

namespace {

std::map<ExecutorKind, ExecutorFactory>& registered() {
  static std::map<ExecutorKind, ExecutorFactory> factories;
  return factories;
}

std::string missing(ExecutorKind kind, const EngineConfig& config) {
  if (kind == ExecutorKind::kCuda) {
    return "engine config asks for backend \"cuda\", but this program was built without CUDA "
           "(nvcc and the CUDA toolkit were not found, or -DINFERGATE_CUDA=OFF; docs/cuda.md)";
  }
  return "engine config asks for " + std::to_string(config.world_size()) +
         " ranks (tensor_parallel x pipeline_parallel x expert_parallel), but this program has no "
         "multi-rank executor: build with MPI (libopenmpi-dev) and run under mpirun "
         "(docs/distributed.md)";
}

}  // namespace

void register_executor(ExecutorKind kind, ExecutorFactory factory) {
  if (factory) {
    registered()[kind] = std::move(factory);
  } else {
    registered().erase(kind);
  }
}

std::unique_ptr<Executor> make_executor(ExecutorKind kind, const ModelWeights& weights,
                                        const EngineConfig& config, int num_kv_blocks) {
  const auto found = registered().find(kind);
  if (found == registered().end()) throw std::invalid_argument(missing(kind, config));
  return found->second(weights, config, num_kv_blocks);
}

}  // namespace infergate
