#include "engine/core/local_executor.h"

#include "engine/core/batch_builder.h"

namespace infergate {

LocalExecutor::LocalExecutor(const ModelWeights& weights, int num_kv_blocks, int block_size,
                             DType kv_dtype, int num_threads)
    : block_size_(block_size),
      pool_(num_threads),
      cache_(weights.config, num_kv_blocks, block_size, kv_dtype),
      model_(weights, pool_) {}

std::vector<float> LocalExecutor::execute(const SchedulerOutput& out) {
  return model_.forward(build_batch(out, block_size_), cache_);
}

MemoryLedger memory_of(const CpuTransformer& model, const KvCacheStorage& cache) {
  MemoryLedger m;
  m.weights_bytes = model.weight_bytes();
  m.kv_cache_bytes = cache.nbytes();
  m.workspace_bytes = model.workspace_bytes();
  return m;
}

MemoryLedger LocalExecutor::memory() const { return memory_of(model_, cache_); }

}  // namespace infergate
