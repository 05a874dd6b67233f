// The transformer (engine/forward/transformer.h) on the CPU's ops: what the CPU executors,
// pipeline stages, draft models and tools call. Logits come back as host vectors; with a
// tensor-parallel shard they are gathered into rows of the full vocabulary.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/forward/cpu/cpu_forward_ops.h"
#include "engine/forward/transformer.h"

namespace infergate {

class CpuTransformer {
 public:
  // `shard` and `comm` (both or neither; they must outlive this) make it one rank's part.
  CpuTransformer(const ModelWeights& weights, ThreadPool& pool, const ModelShard* shard = nullptr,
                 ShardCollectives* comm = nullptr);

  // Writes the batch's K/V into `cache` and returns logits [logits_rows.size(), vocab]:
  // embed(), run_layers(), logits(). Pipeline stages call the parts they hold.
  std::vector<float> forward(const BatchInput& batch, KvCacheStorage& cache);
  void embed(const BatchInput& batch);
  // The hidden states in and out of a pipeline stage: [num_tokens, hidden], valid for n rows.
  float* hidden(int64_t num_tokens) { return model_.hidden(num_tokens); }
  void run_layers(const BatchInput& batch, KvCacheStorage& cache);
  // Final norm and LM head for the rows to sample: [logits_rows.size(), full vocabulary].
  std::vector<float> logits(const BatchInput& batch);
  // Peak bytes of activation scratch buffers so far (the memory ledger's "workspace").
  size_t workspace_bytes() const { return ops_.workspace_bytes(); }
  size_t weight_bytes() const { return model_.weight_bytes(); }
  // Expert parallelism: (token, expert) rows this rank's experts have computed so far.
  int64_t expert_tokens() const { return ops_.expert_tokens(); }

 private:
  const ModelShard* shard_;
  CpuForwardOps ops_;
  Transformer model_;
};

}  // namespace infergate
