#include "engine/forward/cpu/sequence_logits.h"

#include "engine/forward/batch_input.h"
#include "engine/forward/cpu/cpu_transformer.h"
#include "engine/kv/kv_cache_storage.h"

namespace infergate {

std::vector<float> sequence_logits(const ModelWeights& weights, const std::vector<int32_t>& tokens,
                                   ThreadPool& pool, DType kv_dtype) {
  const int block_size = 16;
  const int64_t n = static_cast<int64_t>(tokens.size());
  const int num_blocks = static_cast<int>((n + block_size - 1) / block_size);
  KvCacheStorage cache(weights.config, num_blocks, block_size, kv_dtype);
  std::vector<int32_t> block_table;
  for (int b = 0; b < num_blocks; ++b) block_table.push_back(b);
  BatchInput batch;
  for (int64_t p = 0; p < n; ++p) {
    batch.token_ids.push_back(tokens[static_cast<size_t>(p)]);
    batch.positions.push_back(static_cast<int32_t>(p));
    batch.slot_mapping.push_back(p);  // blocks in order: slot p is position p
    batch.logits_rows.push_back(p);
  }
  batch.sequences.push_back({0, n, n, block_table.data()});
  CpuTransformer model(weights, pool);
  return model.forward(batch, cache);
}

}  // namespace infergate
