#include "engine/parallel/rank_runtime.h"

#include <algorithm>
#include <array>
#include <numeric>

#include "common/util/clock.h"
#include "common/util/nvtx_range.h"
#include "engine/parallel/micro_batches.h"

namespace infergate {

namespace {

MPI_Comm split_group(const ParallelLayout& layout) {
  MPI_Comm group = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, layout.stage(), layout.group_rank(), &group);
  return group;
}

double seconds_since(int64_t start_ns) { return double(now_ns() - start_ns) * 1e-9; }

}  // namespace

RankRuntime::RankRuntime(RankWeights part, const ParallelLayout& layout, const RankSetup& setup)
    : layout_(layout),
      block_size_(setup.config.block_size),
      world_(CommOptions{setup.config.comm_timeout_s}),
      group_comm_(split_group(layout)),
      group_(
          std::make_unique<MpiCommunicator>(CommOptions{setup.config.comm_timeout_s}, group_comm_)),
      hidden_size_(part.weights.config.hidden_size),
      full_vocab_(part.shard.full_vocab),
      busy_s_(size_t(layout.world_size), 0.0),
      wall_s_(size_t(layout.world_size), 0.0),
      expert_tokens_(size_t(layout.world_size), 0) {
  model_ = make_rank_model(part, layout, setup, world_, *group_);
}

RankRuntime::~RankRuntime() {
  model_.reset();  // its communicators and device memory go before the MPI group they use
  group_.reset();
  if (group_comm_ != MPI_COMM_NULL) MPI_Comm_free(&group_comm_);
}

std::vector<float> RankRuntime::run_step(const BatchInput& batch) {
  const int64_t start = now_ns();
  std::vector<float> logits = run_pipeline(batch);
  gather_step_figures(seconds_since(start));
  return logits;
}

// GPipe within a step: stage s embeds (first) or receives micro-batch m, runs its layers, and
// sends it on (or, last, computes its logits), then takes m+1 while stage s+1 works on m. The
// last stage sends every micro-batch's logits to rank 0 at the end, so no stage ever waits on
// rank 0 mid-step.
std::vector<float> RankRuntime::run_pipeline(const BatchInput& batch) {
  NvtxRange range("pipeline_stage");
  const int group = layout_.group_size;
  double busy = 0;
  std::vector<float> logits;
  for (const BatchInput& mb : split_micro_batches(batch, layout_.micro_batches)) {
    const size_t count = size_t(mb.num_tokens() * hidden_size_);
    if (!layout_.first_stage()) {
      world_.recv(CommSpan(model_->stage_hidden(mb.num_tokens()), count, CommDType::kF32),
                  layout_.world_rank - group);
    }
    const int64_t start = now_ns();
    const std::vector<float> part =
        model_->run_stage(mb, layout_.first_stage(), layout_.last_stage());
    logits.insert(logits.end(), part.begin(), part.end());
    busy += seconds_since(start);
    if (!layout_.last_stage()) {
      world_.send(ConstCommSpan(model_->stage_hidden(mb.num_tokens()), count, CommDType::kF32),
                  layout_.world_rank + group);
    }
  }
  const int last_stage_root = (layout_.stages - 1) * group;
  if (last_stage_root != 0) {
    const size_t count = batch.logits_rows.size() * size_t(full_vocab_);
    if (layout_.world_rank == last_stage_root) world_.send(logits, 0);
    if (layout_.world_rank == 0) {
      logits.assign(count, 0.0f);
      world_.recv(logits, last_stage_root);
    }
  }
  if (layout_.world_rank != 0) logits.clear();
  step_busy_s_ = busy;
  return logits;
}

// Pipeline and expert-parallel runs gather every rank's step figures (three doubles a rank),
// so rank 0 can report the bubble of every stage and the load of every expert rank.
void RankRuntime::gather_step_figures(double wall_s) {
  ++steps_;
  const size_t me = size_t(layout_.world_rank);
  if (layout_.stages == 1 && !layout_.expert_parallel) {
    busy_s_[me] += step_busy_s_;
    wall_s_[me] += wall_s;
    return;
  }
  const std::array<double, 3> mine = {step_busy_s_, wall_s, double(model_->expert_tokens())};
  std::vector<double> all(3 * size_t(layout_.world_size));
  world_.all_gather(mine, all);
  for (size_t r = 0; r < size_t(layout_.world_size); ++r) {
    busy_s_[r] += all[3 * r];
    wall_s_[r] += all[3 * r + 1];
    expert_tokens_[r] = int64_t(all[3 * r + 2]);
  }
}

MemoryLedger RankRuntime::memory() const { return model_->memory(); }

namespace {

CommScopeRecord scope_record(const CommStats& stats) {
  CommScopeRecord scope;
  for (CommOp op : kAllCommOps) {
    const CommOpStats& s = stats[op];
    if (s.calls == 0) continue;  // never called: left out
    scope[comm_op_name(op)] = {int64_t(s.calls), int64_t(s.bytes), s.seconds};
  }
  return scope;
}

}  // namespace

ParallelRecord RankRuntime::stats() const {
  ParallelRecord p;
  p.pipeline_parallel = layout_.stages;
  p.tensor_parallel = layout_.tensor_parallel ? layout_.group_size : 1;
  p.expert_parallel = layout_.expert_parallel ? layout_.group_size : 1;
  p.micro_batches = layout_.micro_batches;
  p.steps = steps_;
  p.ranks =
      ParallelRecord::Ranks{layout_.world_size, layout_.group_size, scope_record(world_.stats()),
                            scope_record(model_->group().stats())};
  if (layout_.stages > 1) {
    // Per stage, the share of step time its first rank spent not computing (waiting for the
    // pipeline to fill or drain, or for transfers).
    ParallelRecord::Pipeline pipeline;
    double bubble_sum = 0;
    for (int s = 0; s < layout_.stages; ++s) {
      const size_t r = size_t(s * layout_.group_size);
      const double bubble = wall_s_[r] > 0 ? 1.0 - busy_s_[r] / wall_s_[r] : 0.0;
      pipeline.stages.push_back({s, busy_s_[r], wall_s_[r], bubble});
      bubble_sum += bubble;
    }
    pipeline.bubble_fraction = bubble_sum / layout_.stages;
    p.pipeline = std::move(pipeline);
  }
  if (layout_.expert_parallel) {
    const auto [lo, hi] = std::minmax_element(expert_tokens_.begin(), expert_tokens_.end());
    const double mean =
        double(std::accumulate(expert_tokens_.begin(), expert_tokens_.end(), int64_t(0))) /
        double(expert_tokens_.size());
    p.experts = ParallelRecord::Experts{
        std::vector<int64_t>(expert_tokens_.begin(), expert_tokens_.end()),
        mean > 0 ? double(*hi) / mean : 0.0, mean > 0 ? double(*lo) / mean : 0.0};
  }
  return p;
}

}  // namespace infergate
