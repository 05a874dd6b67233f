// Rank 0's executor of a multi-rank engine: the Engine's scheduler, sampler and KV block
// manager stay on rank 0 and never know (the Executor interface); each step's plan is
// broadcast to every rank, which runs its part (RankRuntime), and the logits come back here.
#pragma once

#include <memory>

#include "engine/core/executor.h"
#include "engine/parallel/control_channel.h"
#include "engine/parallel/rank_runtime.h"

namespace infergate {

class ParallelExecutor final : public Executor {
 public:
  // Collective with the other ranks' workers (run_parallel_worker). Throws before anything is
  // sent if the model cannot be split as asked, or was not loaded with load_model().
  ParallelExecutor(const ModelWeights& weights, const EngineConfig& config, int num_kv_blocks);
  ~ParallelExecutor() override;  // the workers release their parts and wait for the next

  std::vector<float> execute(const SchedulerOutput& out) override;
  MemoryLedger memory() const override { return runtime_->memory(); }
  std::optional<ParallelRecord> parallel_stats() const override { return runtime_->stats(); }

 private:
  int block_size_;
  ControlChannel* control_;  // the job's
  std::unique_ptr<RankRuntime> runtime_;
};

}  // namespace infergate
