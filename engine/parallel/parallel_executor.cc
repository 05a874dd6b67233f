#include "engine/parallel/parallel_executor.h"

#include <stdexcept>

#include "engine/core/batch_builder.h"
#include "engine/core/cuda_limits.h"
#include "engine/parallel/batch_plan_codec.h"
#include "engine/parallel/parallel_job.h"

namespace infergate {

ParallelExecutor::ParallelExecutor(const ModelWeights& weights, const EngineConfig& config,
                                   int num_kv_blocks)
    : block_size_(config.block_size) {
  if (weights.source.kind.empty()) {
    throw std::invalid_argument(
        "a multi-rank engine needs weights from load_model(): the other ranks load the same "
        "model source themselves");
  }
  if (config.on_cuda()) {
    check_cuda_limits(CudaRun(&config, &weights.config, weights.output_weight().dtype()));
  }
  check_rank_model(weights, config);
  const ParallelLayout layout = make_parallel_layout(config, parallel_job().world_size(), 0);
  RankWeights part = shard_weights(weights, layout);  // throws here, before the workers start
  control_ = &parallel_job().control();
  const RankSetup setup{weights.source, config, num_kv_blocks};
  control_->send(ControlCommand::kSetup, text_payload(encode_rank_setup(setup)));
  runtime_ = std::make_unique<RankRuntime>(std::move(part), layout, setup);
}

ParallelExecutor::~ParallelExecutor() {
  runtime_.reset();
  control_->send(ControlCommand::kRelease);
}

std::vector<float> ParallelExecutor::execute(const SchedulerOutput& out) {
  const BatchInput batch = build_batch(out, block_size_);
  control_->send(ControlCommand::kStep, encode_batch(batch, block_size_));
  return runtime_->run_step(batch);
}

}  // namespace infergate
