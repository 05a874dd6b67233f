// One rank's model and KV cache on its backend, as a pipeline stage sees them: the CPU's
// (cpu_rank_model.h, always) or a GPU's (engine/parallel/cuda/, registered by the composition
// root in a build with CUDA, NCCL and MPI). RankRuntime drives either the same way.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "engine/comm/mpi_communicator.h"
#include "engine/core/memory_ledger.h"
#include "engine/forward/batch_input.h"
#include "engine/parallel/parallel_layout.h"
#include "engine/parallel/rank_setup.h"
#include "engine/parallel/weight_sharding.h"

namespace infergate {

class RankModel {
 public:
  virtual ~RankModel() = default;

  // The hidden states [num_tokens, hidden] a stage receives from the previous one and sends to
  // the next, in host memory (MPI carries them between stages).
  virtual float* stage_hidden(int64_t num_tokens) = 0;
  // This stage's part of micro-batch `mb`: the first stage embeds it, the others start from
  // stage_hidden(); the last returns its logits [logits_rows.size(), full vocabulary], the
  // others leave their output in stage_hidden() and return nothing.
  virtual std::vector<float> run_stage(const BatchInput& mb, bool first, bool last) = 0;
  // The communicator the tensor/expert-parallel collectives of the forward go over (stats).
  virtual const Communicator& group() const = 0;
  // Expert parallelism: (token, expert) rows this rank's experts have computed so far.
  virtual int64_t expert_tokens() const = 0;
  virtual MemoryLedger memory() const = 0;
};

// Builds a rank's model: collective over `group` (the MPI communicator of the rank's stage,
// `world` the job's), every rank of the job in the same order.
using RankModelFactory = std::function<std::unique_ptr<RankModel>(
    RankWeights& part, const ParallelLayout& layout, const RankSetup& setup, MpiCommunicator& world,
    MpiCommunicator& group)>;
// Run on rank 0 before any worker is told to set up, so a machine that cannot run the backend
// fails with one clear message instead of inside a collective.
using RankModelCheck = std::function<void(const ModelWeights& weights, const EngineConfig& config)>;

// Backend "cpu" is always there; a null factory unregisters.
void register_rank_model(Backend backend, RankModelFactory make, RankModelCheck check = {});
// Throws std::invalid_argument when the build has no multi-rank model for the backend.
void check_rank_model(const ModelWeights& weights, const EngineConfig& config);
std::unique_ptr<RankModel> make_rank_model(RankWeights& part, const ParallelLayout& layout,
                                           const RankSetup& setup, MpiCommunicator& world,
                                           MpiCommunicator& group);

}  // namespace infergate
