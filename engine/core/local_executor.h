// Runs the model in this process on the CPU backend.
#pragma once

#include <memory>

#include "engine/core/executor.h"
#include "engine/forward/cpu/cpu_transformer.h"
#include "engine/kv/kv_cache_storage.h"
#include "engine/model/model_weights.h"
#include "kernels/cpu/thread_pool.h"

namespace infergate {

// What a forward's weights, its KV cache and its scratch buffers hold (any executor's ledger).
MemoryLedger memory_of(const CpuTransformer& model, const KvCacheStorage& cache);

class LocalExecutor final : public Executor {
 public:
  LocalExecutor(const ModelWeights& weights, int num_kv_blocks, int block_size, DType kv_dtype,
                int num_threads);

  std::vector<float> execute(const SchedulerOutput& out) override;
  MemoryLedger memory() const override;
  bool survives_failed_step() const override { return true; }
  std::optional<int64_t> worker_cpu_ns() const override { return pool_.workers_cpu_ns(); }
  std::optional<std::vector<pid_t>> worker_tids() const override { return pool_.worker_tids(); }
  ThreadPool* cpu_thread_pool() override { return &pool_; }
  size_t kv_block_nbytes() const override { return cache_.block_nbytes(); }
  void read_kv_block(int32_t block, std::span<std::byte> out) const override {
    cache_.read_block(block, out);
  }
  void write_kv_block(int32_t block, std::span<const std::byte> in) override {
    cache_.write_block(block, in);
  }

 private:
  int block_size_;
  ThreadPool pool_;
  KvCacheStorage cache_;
  CpuTransformer model_;
};

}  // namespace infergate
