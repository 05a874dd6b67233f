#include "engine/parallel/parallel_layout.h"

#include <numeric>
#include <stdexcept>
#include <string>

namespace infergate {

int ParallelLayout::first_layer(int s, int num_layers) const {
  if (!stage_layers.empty()) {
    return std::accumulate(stage_layers.begin(), stage_layers.begin() + s, 0);
  }
  const int base = num_layers / stages, extra = num_layers % stages;
  return s * base + std::min(s, extra);
}

void ParallelLayout::check_stages(int num_layers) const {
  if (stages > num_layers) {
    throw std::invalid_argument("pipeline_parallel " + std::to_string(stages) +
                                " exceeds the model's " + std::to_string(num_layers) + " layers");
  }
  const int total = std::accumulate(stage_layers.begin(), stage_layers.end(), 0);
  if (!stage_layers.empty() && total != num_layers) {
    throw std::invalid_argument("pipeline_stage_layers add up to " + std::to_string(total) +
                                " layers, but the model has " + std::to_string(num_layers));
  }
}

ParallelLayout make_parallel_layout(const EngineConfig& config, int world_size, int world_rank) {
  if (config.world_size() != world_size) {
    throw std::invalid_argument(
        "engine config asks for " + std::to_string(config.world_size()) +
        " ranks (pipeline_parallel " + std::to_string(config.pipeline_parallel) +
        " x max(tensor_parallel " + std::to_string(config.tensor_parallel) + ", expert_parallel " +
        std::to_string(config.expert_parallel) + ")) but the job has " +
        std::to_string(world_size) + ": run it as mpirun -np " +
        std::to_string(config.world_size()) + " infergate ...");
  }
  ParallelLayout l;
  l.world_size = world_size;
  l.world_rank = world_rank;
  l.group_size = config.parallel_group_size();
  l.stages = config.pipeline_parallel;
  l.tensor_parallel = config.tensor_parallel > 1;
  l.expert_parallel = config.expert_parallel > 1;
  l.stage_layers = config.pipeline_stage_layers;
  l.micro_batches =
      config.pipeline_micro_batches > 0 ? config.pipeline_micro_batches : config.pipeline_parallel;
  return l;
}

}  // namespace infergate
