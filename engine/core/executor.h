// Where the math runs. The scheduler never knows: a local executor today, multi-rank and
// simulated executors later, all behind this interface.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "engine/core/memory_ledger.h"
#include "engine/core/scheduler.h"

namespace infergate {

class Executor {
 public:
  virtual ~Executor() = default;
  // Runs one step; returns logits [number of sampling sequences, vocab] in schedule order.
  virtual std::vector<float> execute(const SchedulerOutput& out) = 0;
  virtual MemoryLedger memory() const = 0;
  // Multi-rank executors: layout, communication by collective, pipeline bubble, expert load
  // (docs/distributed.md). Null for a single rank.
  virtual nlohmann::json parallel_stats() const { return nullptr; }
};

}  // namespace infergate
