// Where the math runs. The scheduler never knows: the local executor (engine/core), the
// multi-rank one (engine/parallel) and the cuda one (engine/cuda) all sit behind this
// interface; the engine gets the last two through executor_registry.h, so this library links
// neither MPI nor CUDA.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "common/results/parallel_record.h"
#include "engine/core/memory_ledger.h"
#include "engine/core/scheduler.h"

namespace infergate {

class ThreadPool;

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
  // Runs one step; returns logits [number of sampling sequences, vocab] in schedule order (a
  // sampling sequence is one that ScheduledSequence::samples(): a prefill chunk that does not
  // reach the last token has no row).
  virtual std::vector<float> execute(const SchedulerOutput& out) = 0;
  // True when the engine should call execute_and_sample() instead: the logits stay where they
  // were computed (a GPU's memory) and only the tokens come back.
  virtual bool samples_itself() const { return false; }
  // False for an executor whose execute() has no logits to give (the simulator): requests that
  // need them (logits processing, logprobs) are then sampled by execute_and_sample() as is.
  virtual bool returns_logits() const { return true; }
  // True when a throw from execute() leaves the executor fit for the next step (its own memory,
  // one process): the engine then fails that batch's requests and goes on. False where ranks or
  // a device may be left disagreeing: the engine then stops (EngineFailure).
  virtual bool survives_failed_step() const { return false; }
  // Runs one step and samples it: one token per sampling sequence, in schedule order, with
  // `draws` in the same order (sample_token's rules).
  virtual std::vector<int32_t> execute_and_sample(const SchedulerOutput& /*out*/,
                                                  const std::vector<SamplingDraw>& /*draws*/) {
    throw std::logic_error("this executor does not sample; call execute()");
  }
  virtual MemoryLedger memory() const = 0;
  // Multi-rank executors: layout, communication by collective, pipeline bubble, expert load
  // (docs/distributed.md). Null for a single rank.
  virtual std::optional<ParallelRecord> parallel_stats() const { return std::nullopt; }
  // CPU time of the executor's worker threads so far, ns, when all of its work runs on this
  // process's CPU threads (the stepping thread counts its own). nullopt when some runs
  // elsewhere (other ranks, a GPU): then the engine reports no CPU time.
  virtual std::optional<int64_t> worker_cpu_ns() const { return std::nullopt; }
  // The kernel thread ids of those worker threads (for hardware counters); nullopt exactly when
  // worker_cpu_ns() is.
  virtual std::optional<std::vector<pid_t>> worker_tids() const { return std::nullopt; }
  // The CPU worker threads the executor runs its forward on, when they are this process's
  // (a draft model shares them); nullptr otherwise.
  virtual ThreadPool* cpu_thread_pool() { return nullptr; }
  // One KV block as bytes (KvCacheStorage's layout), for handing a prefix to another engine.
  // Executors whose KV is on other ranks do not hand it over yet: 0 and throw.
  virtual size_t kv_block_nbytes() const { return 0; }
  virtual void read_kv_block(int32_t /*block*/, std::span<std::byte> /*out*/) const {
    throw std::logic_error("this executor cannot hand KV blocks over (single-rank engines only)");
  }
  virtual void write_kv_block(int32_t /*block*/, std::span<const std::byte> /*in*/) {
    throw std::logic_error("this executor cannot take KV blocks over (single-rank engines only)");
  }
};

}  // namespace infergate
