// Where the math runs. The scheduler never knows: a local executor today, multi-rank and
// simulated executors later, all behind this interface.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/core/memory_ledger.h"
#include "engine/core/scheduler.h"

namespace infergate {

// One sampling row's parameters and the draw the engine made for it from the request's own
// stream (sample_token's one rng.uniform() per token when temperature > 0; 0 when greedy), for
// executors that sample where the logits are.
struct SamplingDraw {
  float temperature = 0;
  int32_t top_k = 0;
  float top_p = 1;
  double uniform = 0;
};

class Executor {
 public:
  virtual ~Executor() = default;
  // Runs one step; returns logits [number of sampling sequences, vocab] in schedule order.
  virtual std::vector<float> execute(const SchedulerOutput& out) = 0;
  // True when the engine should call execute_and_sample() instead: the logits stay where they
  // were computed (a GPU's memory) and only the tokens come back.
  virtual bool samples_itself() const { return false; }
  // Runs one step and samples it: one token per sampling sequence, in schedule order, with
  // `draws` in the same order (sample_token's rules).
  virtual std::vector<int32_t> execute_and_sample(const SchedulerOutput& /*out*/,
                                                  const std::vector<SamplingDraw>& /*draws*/) {
    throw std::logic_error("this executor does not sample; call execute()");
  }
  virtual MemoryLedger memory() const = 0;
  // Multi-rank executors: layout, communication by collective, pipeline bubble, expert load
  // (docs/distributed.md). Null for a single rank.
  virtual nlohmann::json parallel_stats() const { return nullptr; }
};

}  // namespace infergate
