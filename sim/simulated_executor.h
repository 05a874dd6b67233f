// An Executor that computes nothing: each step advances a virtual clock by the step cost model's
// time for exactly the batch the real scheduler built, and samples a deterministic token per
// sequence (benchmarks ignore EOS, so the values never steer the run). The engine above it
// (scheduler, KV manager, prefix cache, batching) is the real one.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "engine/core/executor.h"
#include "sim/step_cost_model.h"
#include "sim/virtual_clock.h"

namespace infergate {

class SimulatedExecutor final : public Executor {
 public:
  // `memory`: the device's ledger as the memory plan gives it. `decode_delay_ns`: the engine's
  // debug.inject_decode_delay_us, added to every step that decodes, as the real engine's
  // busy-wait adds it.
  SimulatedExecutor(StepCostModel model, VirtualClock& clock, MemoryLedger memory,
                    int64_t decode_delay_ns);
  // cpu: each step first reads how many ranks share the host then (a cluster of workers sets
  // it; the worker's own ranks at least). Null: the layout's fixed host_ranks.
  void share_host_with(const int* busy_host_ranks) { busy_host_ranks_ = busy_host_ranks; }

  std::vector<float> execute(const SchedulerOutput& out) override;
  bool samples_itself() const override { return true; }
  bool returns_logits() const override { return false; }
  bool survives_failed_step() const override { return true; }
  std::vector<int32_t> execute_and_sample(const SchedulerOutput& out,
                                          const std::vector<SamplingDraw>& draws) override;
  MemoryLedger memory() const override { return memory_; }
  // The simulation's own account: steps, seconds by operator, compute and communication.
  std::optional<ParallelRecord> parallel_stats() const override;
  // Prefill/decode handoff between simulated engines: KV contents are not simulated, so a block
  // hands over as bookkeeping only (0 bytes; the transfer's time is the cluster's link model).
  size_t kv_block_nbytes() const override { return 0; }
  void write_kv_block(int32_t /*block*/, std::span<const std::byte> /*in*/) override {}

  const StepCostModel& model() const { return model_; }

 private:
  StepTime simulate(const SchedulerOutput& out);

  StepCostModel model_;
  VirtualClock& clock_;
  MemoryLedger memory_;
  int64_t decode_delay_ns_;
  const int* busy_host_ranks_ = nullptr;
  int64_t steps_ = 0;
  StepTime totals_;
};

}  // namespace infergate
