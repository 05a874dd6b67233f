#include "engine/forward/cpu/cpu_transformer.h"

#include "common/util/nvtx_range.h"

namespace infergate {

CpuTransformer::CpuTransformer(const ModelWeights& weights, ThreadPool& pool,
                               const ModelShard* shard, ShardCollectives* comm)
    : shard_(shard), ops_(weights.config, pool, shard, comm), model_(weights, ops_, shard) {}

std::vector<float> CpuTransformer::forward(const BatchInput& batch, KvCacheStorage& cache) {
  NvtxRange range("forward");
  model_.begin(batch, &cache);
  model_.embed();
  model_.run_layers();
  return logits(batch);
}

void CpuTransformer::embed(const BatchInput& batch) {
  model_.begin(batch, nullptr);
  model_.embed();
}

void CpuTransformer::run_layers(const BatchInput& batch, KvCacheStorage& cache) {
  model_.begin(batch, &cache);
  model_.run_layers();
}

std::vector<float> CpuTransformer::logits(const BatchInput& batch) {
  model_.begin(batch, nullptr);
  const int64_t rows = int64_t(batch.logits_rows.size()), part = model_.config().vocab_size;
  std::vector<float> local(size_t(rows * part));
  model_.logits_to(local.data());
  if (!shard_ || !shard_->tensor_parallel) return local;
  // Vocabulary parallel: every rank's columns, then rows of the full vocabulary (less padding).
  std::vector<float> gathered(local.size() * size_t(shard_->group_size));
  ops_.all_gather(local.data(), local.size(), gathered.data());
  std::vector<float> out(size_t(rows * shard_->full_vocab));
  assemble_vocab_parts(gathered.data(), rows, part, *shard_, out.data());
  return out;
}

}  // namespace infergate
