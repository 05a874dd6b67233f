#include "engine/parallel/cpu_rank_model.h"

#include "engine/core/local_executor.h"

namespace infergate {

CpuRankModel::CpuRankModel(RankWeights& part, const RankSetup& setup, MpiCommunicator& group)
    : group_(group),
      collectives_(group),
      part_(std::move(part)),
      pool_(setup.config.num_threads),
      cache_(part_.weights.config, setup.num_kv_blocks, setup.config.block_size,
             setup.config.kv_cache_dtype),
      model_(part_.weights, pool_, &part_.shard, &collectives_) {
  // The packed copies are what the forward reads.
  part_.weights.drop_projection_matrices();
}

std::vector<float> CpuRankModel::run_stage(const BatchInput& mb, bool first, bool last) {
  if (first) model_.embed(mb);
  model_.run_layers(mb, cache_);
  return last ? model_.logits(mb) : std::vector<float>{};
}

MemoryLedger CpuRankModel::memory() const { return memory_of(model_, cache_); }

}  // namespace infergate
