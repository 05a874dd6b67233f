// What each rank of a multi-rank engine holds (its communicators, its part of the model and of
// the KV cache, on the CPU or a GPU: rank_model.h) and its share of one step: the pipeline over the
// step's micro-batches, with hidden states passed stage to stage and the logits returned to rank 0
// (docs/distributed.md).
#pragma once

#include <memory>
#include <vector>

#include <mpi.h>
#include "common/results/parallel_record.h"
#include "engine/comm/mpi_communicator.h"
#include "engine/core/memory_ledger.h"
#include "engine/parallel/parallel_layout.h"
#include "engine/parallel/rank_model.h"
#include "engine/parallel/rank_setup.h"
#include "engine/parallel/weight_sharding.h"

namespace infergate {

class RankRuntime {
 public:
  // Collective: every rank constructs one, in the same order.
  RankRuntime(RankWeights part, const ParallelLayout& layout, const RankSetup& setup);
  ~RankRuntime();

  // This rank's part of the step; the logits [logits_rows, vocab] on world rank 0, empty on
  // the others.
  std::vector<float> run_step(const BatchInput& batch);

  MemoryLedger memory() const;
  // Layout, communication by collective (this rank's), pipeline bubble and expert load (every
  // rank's, gathered each step).
  ParallelRecord stats() const;

 private:
  std::vector<float> run_pipeline(const BatchInput& batch);
  void gather_step_figures(double wall_s);

  ParallelLayout layout_;
  int block_size_;
  MpiCommunicator world_;
  MPI_Comm group_comm_ = MPI_COMM_NULL;
  std::unique_ptr<MpiCommunicator> group_;
  std::unique_ptr<RankModel> model_;
  int64_t hidden_size_;
  int64_t full_vocab_;
  // Per rank, summed over steps: seconds computing, seconds in steps, expert rows computed.
  std::vector<double> busy_s_, wall_s_;
  std::vector<int64_t> expert_tokens_;
  int64_t steps_ = 0;
  double step_busy_s_ = 0;  // this rank, the latest step
};

}  // namespace infergate
