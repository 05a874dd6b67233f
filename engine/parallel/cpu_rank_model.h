// A rank's model on the CPU: the packed part of the weights, the paged KV cache of its layers,
// and the group's collectives over MPI.
#pragma once

#include <memory>

#include "engine/forward/cpu/cpu_transformer.h"
#include "engine/kv/kv_cache_storage.h"
#include "engine/parallel/group_collectives.h"
#include "engine/parallel/rank_model.h"
#include "kernels/cpu/thread_pool.h"

namespace infergate {

class CpuRankModel final : public RankModel {
 public:
  // Keeps `part` (moved from) and `group` (must outlive this).
  CpuRankModel(RankWeights& part, const RankSetup& setup, MpiCommunicator& group);

  float* stage_hidden(int64_t num_tokens) override { return model_.hidden(num_tokens); }
  std::vector<float> run_stage(const BatchInput& mb, bool first, bool last) override;
  const Communicator& group() const override { return group_; }
  int64_t expert_tokens() const override { return model_.expert_tokens(); }
  MemoryLedger memory() const override;

 private:
  MpiCommunicator& group_;
  GroupCollectives collectives_;
  RankWeights part_;
  ThreadPool pool_;
  KvCacheStorage cache_;
  CpuTransformer model_;
};

}  // namespace infergate
