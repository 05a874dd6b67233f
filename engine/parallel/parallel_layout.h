// Where a rank sits in a multi-rank engine: world rank = stage x group_size + group_rank.
// Each pipeline stage holds a contiguous run of layers; the ranks of one stage form its
// tensor/expert-parallel group (docs/distributed.md).
#pragma once

#include <vector>

#include "engine/core/engine_config.h"

namespace infergate {

struct ParallelLayout {
  int world_size = 1;
  int world_rank = 0;
  int group_size = 1;  // max(tensor_parallel, expert_parallel)
  int stages = 1;      // pipeline_parallel
  bool tensor_parallel = false;
  bool expert_parallel = false;
  int micro_batches = 1;
  std::vector<int> stage_layers;  // explicit layers per stage; empty: an even split

  int stage() const { return world_rank / group_size; }
  int group_rank() const { return world_rank % group_size; }
  bool first_stage() const { return stage() == 0; }
  bool last_stage() const { return stage() == stages - 1; }
  // Stage s holds layers [first_layer(s, L), first_layer(s + 1, L)): the explicit split, or an
  // even one, the first stages taking one more when L does not divide.
  int first_layer(int stage, int num_layers) const;
  // Throws std::invalid_argument unless every stage gets at least one of `num_layers` layers
  // (and an explicit split adds up to them).
  void check_stages(int num_layers) const;
};

// Throws std::invalid_argument when `world_size` (the job's) is not what `config` asks for.
ParallelLayout make_parallel_layout(const EngineConfig& config, int world_size, int world_rank);

}  // namespace infergate
