#include "engine/parallel/parallel_job.h"

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <stdexcept>

#include "engine/core/executor_registry.h"
#include "engine/model/model_loader.h"
#include "engine/parallel/batch_plan_codec.h"
#include "engine/parallel/parallel_executor.h"
#include "engine/parallel/rank_runtime.h"

namespace infergate {

namespace {

ParallelJob* g_job = nullptr;

// One engine's part on a worker rank, from its setup message until rank 0 releases it.
std::unique_ptr<RankRuntime> set_up_part(const std::vector<int64_t>& payload, int world_rank,
                                         int world_size) {
  const RankSetup setup = decode_rank_setup(payload_text(payload));
  ModelWeights weights = load_model(setup.source);
  weights.apply_weight_dtype(weight_dtype_name(setup.config.weight_dtype));
  const ParallelLayout layout = make_parallel_layout(setup.config, world_size, world_rank);
  return std::make_unique<RankRuntime>(shard_weights(weights, layout), layout, setup);
}

}  // namespace

bool launched_under_mpi() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMI_SIZE") != nullptr ||
         std::getenv("PMIX_RANK") != nullptr;
}

ParallelJob::ParallelJob(int* argc, char*** argv) : session_(argc, argv) {
  control_ = std::make_unique<ControlChannel>();
  g_job = this;
  register_executor(ExecutorKind::kParallel,
                    [](const ModelWeights& w, const EngineConfig& c, int blocks) {
                      return std::make_unique<ParallelExecutor>(w, c, blocks);
                    });
}

ParallelJob::~ParallelJob() {
  if (!is_worker() && world_size() > 1) control_->send(ControlCommand::kExit);
  register_executor(ExecutorKind::kParallel, nullptr);
  control_.reset();
  g_job = nullptr;
}

int ParallelJob::run_worker() {
  // mpirun forwards SIGINT/SIGTERM to every rank; rank 0 shuts down gracefully (a server
  // finishes its responses) and then tells the workers to exit, so they leave it to rank 0.
  // A job that fails is still ended: mpirun kills what it cannot stop.
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGTERM, SIG_IGN);
  std::unique_ptr<RankRuntime> part;
  std::vector<int32_t> tables;
  try {
    for (;;) {
      auto [command, payload] = control_->receive();
      switch (command) {
        case ControlCommand::kExit:
          return 0;
        case ControlCommand::kSetup:
          part.reset();
          part = set_up_part(payload, world_rank(), world_size());
          break;
        case ControlCommand::kStep:
          if (!part) throw std::runtime_error("a step arrived before any engine was set up");
          part->run_step(decode_batch(payload, tables));
          break;
        case ControlCommand::kRelease:
          part.reset();
          break;
        default:
          throw std::runtime_error("unknown control command " + std::to_string(int64_t(command)));
      }
    }
  } catch (const std::exception& e) {
    // Rank 0 is waiting in a collective this rank will never join: end the job, saying why.
    MpiSession::abort_job(e.what(), 2);
  }
}

ParallelJob& parallel_job() {
  if (!g_job) {
    throw std::logic_error(
        "a multi-rank engine runs only under mpirun: mpirun -np N infergate ... "
        "(docs/distributed.md)");
  }
  return *g_job;
}

}  // namespace infergate
